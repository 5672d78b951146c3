// Detached runs end to end (docs/launcher.md#detached-runs): the real core
// under shardbench-supervise, the real CLI killed with SIGKILL mid-run, real
// SQLite files, a real sshd on loopback and a relay that freezes the link.
// Whatever happens to the client, the run trains on, and attaching stores
// every line of the run directory exactly once.
// - localRunOutlivesTheCli, sshRunOutlivesTheCliAndAFrozenLink: the CLI killed
//   with SIGKILL mid-run, locally and over SSH; the ranks train on, and
//   attaching stores every line once, again after the offsets are deleted. A
//   relay frozen with SIGSTOP under --silence-timeout 4 is noticed (4.1 s
//   after the freeze when measured; the test allows 7 s); thawed, the client
//   reconnects and follows on.
// - restartsFromTheLatestCheckpointUnattended: a rank killed with no client
//   attached restarts from the newest checkpoint; both attempts, the reason
//   and the resumed step are stored.
// - twoClientsOneDetachesAnotherStops: two clients, one detaching, a third
//   command stopping the run.
// - aVanishedSupervisorIsReconciled: a supervisor killed with SIGKILL leaves
//   no process; `runs --refresh` says so.
// - sshTwoHostsFromTheHeadNode: the head's supervisor starts the second host's
//   ranks.
#include "detach_fixture.hpp"
#include "../run_store_fixture.hpp"

#include "launch/detach/attach_target.hpp"
#include "launch/detach/run_ingestor.hpp"
#include "protocol/follow_records.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <functional>

using namespace sb;
using namespace sb::test;
using namespace sb::store::test;

class LauncherDetach : public DetachFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { checkPrograms(); }

    // kill -9 of the CLI mid-run: the ranks train on to the end; attaching
    // afterwards stores every line exactly once, and again changes nothing.
    void localRunOutlivesTheCli()
    {
        const QString db = tmp_.filePath(QStringLiteral("outlive.sqlite"));
        // Long enough to outlast the CLI's start and kill: 150 tiny steps
        // finished first on a quiet host (CI, 2026-11-27); 10000 take ~15 s there.
        constexpr int kSteps = 10000;
        const QString p = plan(QStringLiteral("outlive.json"), kSteps);
        QProcess run;
        dieWithParent(run, SIGKILL);
        run.start(cliPath(), {QStringLiteral("run"), p, QStringLiteral("--detach"), QStringLiteral("--db"), db,
                              QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")});
        QByteArray err;
        QVERIFY2(readStderrUntil(run, &err, "step ", 120000), err.constData());
        sb::test::signalProcess(run.processId(), SIGKILL);
        run.waitForFinished(5000);
        const QString dir = runDirOf(db, 1);
        QVERIFY2(!dir.isEmpty(), err.constData());
        // The spec holds the ranks' environment: only its owner reads it.
        QCOMPARE(QFileInfo(dir + QStringLiteral("/spec.json")).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFileDevice::Permissions());
        QCOMPARE(stateOf(dir).value(QStringLiteral("status")).toString(), QStringLiteral("running"));
        QVERIFY2(waitFor([&] { return statusOf(dir) == QLatin1String("completed"); }, 300000), qPrintable(statusOf(dir)));
        QCOMPARE(countDir(dir).maxStep, kSteps);

        const CliResult a = cli({QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), db});
        QVERIFY2(a.code == 0 && a.out.contains(QStringLiteral("completed, %1 steps").arg(kSteps)), qPrintable(describe(a)));
        expectStoreMatchesDir(db, 1, dir);
        QCOMPARE(countStore(db, 1).status, QStringLiteral("completed"));

        // Fetching it all again (the offsets forgotten) stores nothing twice.
        QProcess::execute(QStringLiteral("sqlite3"), {db, QStringLiteral("DELETE FROM ingest_offsets")});
        const CliResult again = cli({QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(again.code == 0, qPrintable(describe(again)));
        expectStoreMatchesDir(db, 1, dir);
        expectNoProcessesOf(dir, 10000);
    }

    // A rank killed while no client is attached: the supervisor restarts from
    // the newest checkpoint; attaching shows both attempts, the reason and
    // the resumed step.
    void restartsFromTheLatestCheckpointUnattended()
    {
        const QString db = tmp_.filePath(QStringLiteral("restart.sqlite"));
        // Long enough that rank 1, killed after the first checkpoint, dies
        // mid-run: a kill that lands after the last checkpoint (a loaded
        // host, 120 steps) leaves the restart nothing to train.
        constexpr int kSteps = 2000;
        const QString p = plan(QStringLiteral("restart.json"), kSteps, tmp_.filePath(QStringLiteral("ckpt")), 20);
        const qint64 id = launch(p, db, {QStringLiteral("--max-restarts"), QStringLiteral("1")});
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        // Wait for a complete checkpoint, then kill rank 1.
        QVERIFY(waitFor([&] { return stateOf(dir).contains(QStringLiteral("latest_checkpoint")); }, 180000));
        const QJsonArray ranks = stateOf(dir).value(QStringLiteral("ranks")).toArray();
        const qint64 pid = static_cast<qint64>(ranks.at(1).toObject().value(QStringLiteral("pid")).toDouble());
        QVERIFY(pid > 0);
        QCOMPARE(sb::test::signalProcess(pid, SIGKILL), 0);
        QVERIFY2(waitFor([&] { return statusOf(dir) == QLatin1String("completed"); }, 240000), qPrintable(statusOf(dir)));

        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 0, qPrintable(describe(a)));
        expectStoreMatchesDir(db, id, dir);
        QString error;
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        QVERIFY(reader);
        const QList<store::AttemptRecord> attempts = reader->attempts(id);
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts[0].status, QStringLiteral("failed"));
        QVERIFY2(attempts[0].reason.contains(QLatin1String("rank 1")) && attempts[0].reason.contains(QLatin1String("SIGKILL")),
                 qPrintable(attempts[0].reason));
        QCOMPARE(attempts[0].failingRank, 1);
        // The reason is stored as a catalogue code with its arguments too, so
        // a workbench in another language words it itself.
        QCOMPARE(attempts[0].reasonCode, QStringLiteral("rank.killed"));
        QCOMPARE(attempts[0].reasonArgs.value(0), QStringLiteral("1"));
        QCOMPARE(attempts[0].reasonArgs.value(3), QStringLiteral("SIGKILL"));
        const QJsonObject firstAttempt = stateOf(dir).value(QStringLiteral("attempts")).toArray().at(0).toObject();
        QCOMPARE(firstAttempt.value(QStringLiteral("reason_code")).toString(), QStringLiteral("rank.killed"));
        QVERIFY2(!attempts[1].resumeDir.isEmpty(), "the restart did not resume from a checkpoint");
        QCOMPARE(attempts[1].status, QStringLiteral("completed"));
        // The second attempt starts after the checkpoint's step, not at 1.
        int firstResumed = 1 << 30;
        reader->forEachStepRow(id, 0, [&](const store::MetricRow& r) {
            if (r.m.attempt == 1) firstResumed = std::min(firstResumed, r.m.step);
        });
        QVERIFY2(firstResumed > 1 && firstResumed < kSteps && firstResumed % 20 == 1, qPrintable(QString::number(firstResumed)));
        const std::optional<store::RunRow> run = reader->run(id);
        QCOMPARE(run->status, QStringLiteral("completed"));
        QCOMPARE(run->restarts, 1);
    }

    // A run whose checkpoints fail trains on but does not end plainly
    // "completed": the reason counts them and attach exits with 3, as run does.
    void failedCheckpointsAreNotPlainCompletion()
    {
        const QString ckpt = tmp_.filePath(QStringLiteral("ckpt-blocked"));
        const QString db = tmp_.filePath(QStringLiteral("ckfail.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("ckfail.json"), 20, ckpt, 10), db);
        QVERIFY(id > 0);
        // Once the pre-flight has passed, the folder becomes a file: every save fails.
        QDir(ckpt).removeRecursively();
        QCOMPARE(SshdFixture::writeFile(ckpt, "not a folder"), QString());
        const QString dir = runDirOf(db, id);
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(dir)); }, 180000), qPrintable(statusOf(dir)));
        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 3, qPrintable(describe(a)));
        const StoreCounts s = countStore(db, id);
        QCOMPARE(s.status, QStringLiteral("completed"));
        QVERIFY2(s.reason.startsWith(QLatin1String("2 checkpoints failed (step 10: ")), qPrintable(s.reason));
        const QJsonObject state = stateOf(dir);
        QCOMPARE(state.value(QStringLiteral("reason_code")).toString(), QStringLiteral("run.checkpoints_failed"));
        QCOMPARE(state.value(QStringLiteral("reason_args")).toArray().at(0).toString(), QStringLiteral("2"));
        QString error;
        auto readerOpened = store::RunReader::open(db);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const std::optional<store::RunRow> run = reader->run(id);
        QCOMPARE(run->reasonCode, QStringLiteral("run.checkpoints_failed"));
        QCOMPARE(run->reasonArgs.value(0), QStringLiteral("2"));
        QVERIFY2(run->reasonArgs.value(1).startsWith(QLatin1String("step 10: ")), qPrintable(run->reasonArgs.join(u'|')));
    }

    // Two clients follow one run; one detaches (Ctrl-C: the run goes on), a
    // third command stops it, and the other client sees it cancelled.
    void twoClientsOneDetachesAnotherStops()
    {
        const QString db = tmp_.filePath(QStringLiteral("two.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("two.json"), 1000000), db);
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QProcess a, b;
        for (QProcess* p : {&a, &b}) {
            dieWithParent(*p, SIGKILL);
            p->start(cliPath(), {QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db});
        }
        QByteArray errA, errB;
        QVERIFY(waitFor([&] {
            a.waitForReadyRead(20);
            b.waitForReadyRead(20);
            errA += a.readAllStandardError();
            errB += b.readAllStandardError();
            return errA.contains("step ") && errB.contains("step ");
        }, 120000));
        sb::test::signalProcess(a.processId(), SIGINT);
        QVERIFY(a.waitForFinished(20000));
        QCOMPARE(a.exitCode(), 0);
        QCOMPARE(statusOf(dir), QStringLiteral("running"));
        QVERIFY(b.state() == QProcess::Running);

        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QVERIFY(b.waitForFinished(30000));
        const QByteArray outB = b.readAllStandardOutput();
        QCOMPARE(b.exitCode(), 130);
        QVERIFY2(outB.contains("cancelled"), outB.constData());
        QCOMPARE(statusOf(dir), QStringLiteral("cancelled"));
        QCOMPARE(countStore(db, id).status, QStringLiteral("cancelled"));
        expectNoProcessesOf(stateOf(dir).value(QStringLiteral("run_id")).toString(), 15000);
        expectStoreMatchesDir(db, id, dir);
    }

    // A supervisor killed with SIGKILL takes its ranks with it; the next
    // `runs --refresh` finds it gone and says since when.
    void aVanishedSupervisorIsReconciled()
    {
        const QString db = tmp_.filePath(QStringLiteral("gone.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("gone.json"), 1000000), db);
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QVERIFY(waitFor([&] { return countDir(dir).steps > 2; }, 120000));
        const QJsonObject state = stateOf(dir);
        const qint64 pid = static_cast<qint64>(state.value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("pid")).toDouble());
        QCOMPARE(sb::test::signalProcess(pid, SIGKILL), 0);
        expectNoProcessesOf(state.value(QStringLiteral("run_id")).toString(), 15000);
        const CliResult runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--refresh"), QStringLiteral("--json")});
        QVERIFY2(runs.code == 0, qPrintable(describe(runs)));
        const QJsonObject row = QJsonDocument::fromJson(runs.out.toUtf8()).array().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QVERIFY2(row.value(QStringLiteral("reason")).toString().contains(QLatin1String("is gone (last heard from at")),
                 qPrintable(runs.out));
        QString error;
        auto readerOpened = store::RunReader::open(db);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const std::optional<store::RunRow> run = reader->run(id);
        QCOMPARE(run->reasonCode, QStringLiteral("run.supervisor_gone"));
        QCOMPARE(run->reasonArgs.size(), 2);
    }

    // `rm -rf` of a live run's directory (a scratch purge, a mistake): the
    // supervisor and its ranks train on with no lock and no state to read.
    // A rank whose event file cannot be opened is not started (it used to
    // train on, its events lost): the run fails with the reason coded.
    void aRankThatCannotBeRecordedIsNotStarted()
    {
        const QString db = tmp_.filePath(QStringLiteral("unrecorded.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("unrecorded.json"), 1000000), db);
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        // The same spec in a fresh folder whose rank-1 event file is a folder.
        const QString copy = tmp_.filePath(QStringLiteral("unrecorded-copy"));
        QVERIFY(QDir().mkpath(copy + QStringLiteral("/attempt-0/rank-1.events")));
        QVERIFY(QFile::copy(dir + QStringLiteral("/spec.json"), copy + QStringLiteral("/spec.json")));
        QByteArray out;
        const int code = runProgram(binDir() + QStringLiteral("/shardbench-supervise"),
                                    {QStringLiteral("start"), copy, QStringLiteral("--foreground")}, &out, 120000);
        QVERIFY2(code != 0, out.constData());
        const QJsonObject state = stateOf(copy);
        QCOMPARE(state.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(state.value(QStringLiteral("reason_code")).toString(), QStringLiteral("rank.not_started"));
        QVERIFY2(state.value(QStringLiteral("reason")).toString().contains(QLatin1String("cannot open")),
                 qPrintable(state.value(QStringLiteral("reason")).toString()));
    }

    // Over SSH: the supervisor runs on the head node; the CLI is killed
    // mid-run, the link of a later client freezes (a relay stopped with
    // SIGSTOP) and comes back: the client says so, reconnects and stores
    // every line once.
    void sshRunOutlivesTheCliAndAFrozenLink()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.11")}), QString());
        TcpForwarder relay;
        QCOMPARE(relay.start(QStringLiteral("127.0.0.1"), sshd.address(0), sshd.port(0)), QString());
        const QString config = tmp_.filePath(QStringLiteral("ssh_config_relay"));
        QCOMPARE(SshdFixture::writeFile(config, QStringLiteral("Host relayed\n  HostName 127.0.0.1\n  Port %1\n  IdentityFile %2\n")
                                                    .arg(relay.port())
                                                    .arg(sshd.identityFile)
                                                    .toUtf8()),
                 QString());
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_relay"));
        const QByteArray keyLine = sshd.hostKeyLine(0).toUtf8();
        QCOMPARE(SshdFixture::writeFile(known, QStringLiteral("[127.0.0.1]:%1 ").arg(relay.port()).toUtf8() +
                                                   keyLine.mid(keyLine.indexOf(' ') + 1) + '\n'),
                 QString());
        const QString db = tmp_.filePath(QStringLiteral("ssh.sqlite"));
        // The run outlasts everything below however slow the host is; once the
        // follower has reconnected and seen a later step, the run is stopped.
        constexpr int kSteps = 1000000;
        const QString p = plan(QStringLiteral("ssh.json"), kSteps);
        QProcess run;
        dieWithParent(run, SIGKILL);
        run.start(cliPath(), {QStringLiteral("run"), p, QStringLiteral("--detach"), QStringLiteral("--db"), db,
                              QStringLiteral("--host"), QStringLiteral("relayed:2"), QStringLiteral("--ssh-config"), config,
                              QStringLiteral("--known-hosts"), known, QStringLiteral("--ssh-dir"), sshd.sshDir,
                              QStringLiteral("--remote-core"), corePath(), QStringLiteral("--remote-dir"), tmp_.filePath(QStringLiteral("remote")),
                              QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")});
        QByteArray err;
        QVERIFY2(readStderrUntil(run, &err, "step ", 120000), err.constData());
        sb::test::signalProcess(run.processId(), SIGKILL);
        run.waitForFinished(5000);
        const QString dir = runDirOf(db, 1); // loopback: the head node's folder is visible here too
        QVERIFY(QFile::exists(dir + QStringLiteral("/state.json")));
        QCOMPARE(statusOf(dir), QStringLiteral("running"));

        QProcess follower;
        dieWithParent(follower, SIGKILL);
        follower.start(cliPath(), {QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), db,
                                   QStringLiteral("--silence-timeout"), QStringLiteral("4")});
        QByteArray ferr;
        auto readF = [&] {
            follower.waitForReadyRead(50);
            ferr += follower.readAllStandardError();
        };
        QVERIFY2(waitFor([&] { readF(); return ferr.contains("step "); }, 60000), ferr.constData());
        QElapsedTimer frozen;
        frozen.start();
        relay.freeze();
        QVERIFY2(waitFor([&] { readF(); return ferr.contains("connection lost"); }, 20000), ferr.constData());
        const qint64 detectedMs = frozen.elapsed();
        qInfo("frozen link noticed after %lld ms", detectedMs);
        QVERIFY2(detectedMs < 4000 + 3000, qPrintable(QString::number(detectedMs)));
        QTest::qWait(3000);
        relay.thaw();
        QVERIFY2(waitFor([&] {
            readF();
            const qsizetype at = ferr.indexOf("reconnected");
            return at >= 0 && ferr.indexOf("step ", at) >= 0;
        }, 120000), ferr.constData());
        const CliResult stop = cli({QStringLiteral("stop"), QStringLiteral("1"), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QVERIFY2(waitFor([&] { readF(); return follower.state() == QProcess::NotRunning; }, 60000), ferr.constData());
        QCOMPARE(follower.exitCode(), 130);
        QCOMPARE(statusOf(dir), QStringLiteral("cancelled"));
        expectStoreMatchesDir(db, 1, dir);
    }

    // Two hosts: the laptop talks to the head node only; the head's
    // supervisor starts the other host's rank with its own ssh (whose host
    // keys it checks strictly) and the run needs no client at all.
    void sshTwoHostsFromTheHeadNode()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd2")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.12"), QStringLiteral("127.0.0.13")}), QString());
        const QString headConfig = writeHeadConfig(sshd, QStringLiteral("head_ssh_config"));
        QVERIFY(!headConfig.isEmpty());
        const QString p = tmp_.filePath(QStringLiteral("two-hosts.json"));
        QCOMPARE(writeTinyPlan(p, 2, 1, 60), QString());
        const QString db = tmp_.filePath(QStringLiteral("two-hosts.sqlite"));
        // Weights the head node cannot read stop the launch before any supervisor or rank starts.
        const CliResult refused = cli(QStringList{QStringLiteral("run"), p, QStringLiteral("--detach"), QStringLiteral("--no-follow"),
                                                  QStringLiteral("--db"), db, QStringLiteral("--init-from"), QStringLiteral("absent.safetensors")} +
                                      headNodeArgs(sshd, 1, QStringLiteral("remote2"), headConfig));
        QVERIFY2(refused.code != 0 && refused.err.contains(QStringLiteral("%1: the initial weights absent.safetensors cannot start this plan (checked there")
                                                               .arg(sshd.alias(0))) &&
                     refused.err.contains(QLatin1String("no such file")),
                 qPrintable(describe(refused)));
        QCOMPARE(countStore(db, 1).status, QStringLiteral("failed")); // recorded as a launch that failed
        const qint64 id = launch(p, db, headNodeArgs(sshd, 1, QStringLiteral("remote2"), headConfig));
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(dir)); }, 180000), qPrintable(statusOf(dir)));
        QFile sup(dir + QStringLiteral("/supervisor.log"));
        sup.open(QIODevice::ReadOnly);
        QVERIFY2(statusOf(dir) == QLatin1String("completed"), sup.readAll().constData());
        const QJsonArray ranks = stateOf(dir).value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.at(1).toObject().value(QStringLiteral("host")).toString(), sshd.alias(1));
        QVERIFY(ranks.at(1).toObject().value(QStringLiteral("pid")).toDouble() > 0); // reported by the remote wrapper
        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow"),
                              QStringLiteral("--logs"), QStringLiteral("all")});
        QVERIFY2(a.code == 0 && a.out.contains(QLatin1String("completed, 60 steps")), qPrintable(describe(a)));
        expectStoreMatchesDir(db, id, dir);
        expectNoProcessesOf(dir, 10000);
    }

    // A host that refuses connections for a while (a bastion's MaxStartups,
    // a rebooting node): the head's sessions to it fail (ssh exits 255) and
    // are retried with back-off until they get through; the launch succeeds.
    // The refusal is a ProxyCommand that fails until a gate file appears.
    void refusedConnectionsAreRetried()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd3")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.14"), QStringLiteral("127.0.0.15")}), QString());
        const QString gate = tmp_.filePath(QStringLiteral("gate"));
        const QString proxy = sourceDir() + QStringLiteral("/tests/launcher/support/flaky_proxy.py");
        const QString headConfig = writeHeadConfig(sshd, QStringLiteral("head_ssh_config3"),
                                                    QStringLiteral("Host %1\n  ProxyCommand python3 %2 %3 %h %p\n")
                                                        .arg(sshd.alias(1), proxy, gate)
                                                        .toUtf8());
        QVERIFY(!headConfig.isEmpty());
        const QString p = tmp_.filePath(QStringLiteral("refused.json"));
        QCOMPARE(writeTinyPlan(p, 2, 2, 10), QString());
        const QString db = tmp_.filePath(QStringLiteral("refused.sqlite"));
        const qint64 id = launch(p, db, headNodeArgs(sshd, 2, QStringLiteral("remote3"), headConfig));
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QVERIFY(waitFor([&] { return linesOf(dir + QStringLiteral("/supervisor.log")).join('\n').contains("try 3 of 6"); }, 30000));
        QCOMPARE(SshdFixture::writeFile(gate, "open"), QString());
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(dir)); }, 240000), qPrintable(statusOf(dir)));
        const QByteArray log = linesOf(dir + QStringLiteral("/supervisor.log")).join('\n');
        QVERIFY2(statusOf(dir) == QLatin1String("completed"), log.constData());
        QVERIFY2(log.contains("rank 2: connecting to node-b failed (Connection closed") && log.contains("try 3 of 6 in 2 s"), log.constData());
        expectNoProcessesOf(dir, 10000);
    }

    // The follower sends a line longer than its read size whole, and the
    // lines after it (it used to stop at such a line for ever).
    void longLinesAreFollowed()
    {
        const QString dir = tmp_.filePath(QStringLiteral("long-lines"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/attempt-0")));
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/state.json"), "{\"status\":\"completed\"}\n"), QString());
        const QByteArray longLine = "{\"t\":1,\"s\":\"e\",\"l\":\"" + QByteArray(3 << 20, 'x') + "\"}";
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/attempt-0/rank-0.log"), longLine + "\n{\"t\":2,\"l\":\"after\"}\n"), QString());
        QProcess f;
        f.setStandardInputFile(QProcess::nullDevice());
        f.start(binDir() + QStringLiteral("/shardbench-supervise"), {QStringLiteral("follow"), dir, QStringLiteral("--once")});
        QVERIFY(f.waitForFinished(30000));
        QCOMPARE(f.exitCode(), 0);
        QList<QJsonObject> lines;
        for (const QByteArray& l : f.readAllStandardOutput().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(l).object();
            if (o.value(QStringLiteral("k")).toString() == QLatin1String("l")) lines << o;
        }
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].value(QStringLiteral("d")).toString().toUtf8(), longLine);
        QCOMPARE(lines[1].value(QStringLiteral("o")).toDouble(), lines[0].value(QStringLiteral("n")).toDouble());
        QCOMPARE(lines[1].value(QStringLiteral("d")).toString(), QStringLiteral("{\"t\":2,\"l\":\"after\"}"));
    }

    // The ingestor on its own: follower records fed twice store each row
    // once, and events beyond the per-rank budget stay in the run directory.
    void ingestorStoresOnceWithinTheEventBudget()
    {
        const QString db = tmp_.filePath(QStringLiteral("ingest.sqlite"));
        store::NewRun row = bareRun(QStringLiteral("ingest-test"));
        row.runDir = QStringLiteral("/nowhere");
        auto [store, id, error] = storeWithRun(db, row);
        QVERIFY2(store, qPrintable(error));
        QVERIFY(id > 0);
        auto record = [](const QString& file, qint64 at, const QByteArray& line) {
            QJsonObject o{{QStringLiteral("k"), QStringLiteral("l")}, {QStringLiteral("f"), file}, {QStringLiteral("o"), at},
                          {QStringLiteral("n"), at + line.size() + 1}, {QStringLiteral("d"), QString::fromUtf8(line)}};
            return QJsonDocument(o).toJson(QJsonDocument::Compact);
        };
        QList<QByteArray> records;
        qint64 at = 0;
        const QByteArray hello = "{\"type\":\"hello\",\"rank\":1,\"t\":1}";
        records << record(QStringLiteral("attempt-0/rank-1.events"), at, hello);
        at += hello.size() + 1;
        for (int i = 0; i < 60; ++i) { // 60 x 100 KB: over the 4 MiB budget
            const QByteArray big = "{\"type\":\"note\",\"rank\":1,\"t\":2,\"blob\":\"" + QByteArray(100000, 'x') + "\"}";
            records << record(QStringLiteral("attempt-0/rank-1.events"), at, big);
            at += big.size() + 1;
        }
        const QByteArray step = "{\"type\":\"step\",\"rank\":1,\"t\":3,\"step\":1,\"loss\":2.5}";
        records << record(QStringLiteral("attempt-0/rank-1.events"), at, step);
        const QByteArray logLine = "{\"t\":4,\"s\":\"e\",\"l\":\"hello from rank 1\"}";
        records << record(QStringLiteral("attempt-0/rank-1.log"), 0, logLine);
        for (int pass = 0; pass < 2; ++pass) {
            launch::RunIngestor in(*store, id, {}, {}, {}); // forgets the offsets: only the keys prevent duplicates
            for (const QByteArray& r : records) in.take(r);
            in.saveOffsets();
            QVERIFY(store->flush());
        }
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        const QList<store::EventRecord> events = reader->events(id);
        qint64 bytes = 0;
        for (const store::EventRecord& e : events) bytes += e.json.size();
        QVERIFY2(bytes <= launch::RecorderOptions{}.eventBytes, qPrintable(QString::number(bytes)));
        QVERIFY(events.size() > 30 && events.size() < 61);
        QCOMPARE(events.front().type, QStringLiteral("hello"));
        QCOMPARE(reader->logs(id, 1).size(), 1);
        int steps = 0;
        reader->forEachStepRow(id, -1, [&](const store::MetricRow&) { ++steps; });
        QCOMPARE(steps, 1);
        QCOMPARE(reader->ingestOffsets(id).value(QStringLiteral("attempt-0/rank-1.events")), at + step.size() + 1);
    }

    // A checkpoint past a rank's event budget is still recorded (a restore
    // lists it), as a supervised run's always was: one writer, RunRows.
    void checkpointsPastTheEventBudgetAreRecorded()
    {
        auto [store, id, error] = storeWithRun(tmp_.filePath(QStringLiteral("budget.sqlite")), bareRun(QStringLiteral("budget-test")));
        QVERIFY2(store, qPrintable(error));
        QVERIFY(id > 0);
        const QByteArray note = "{\"type\":\"note\",\"rank\":0,\"t\":1,\"text\":\"" + QByteArray(100, 'x') + "\"}";
        const QByteArray checkpoint = "{\"type\":\"checkpoint\",\"rank\":0,\"t\":2,\"step\":5,\"path\":\"/ck/step-000005\","
                                      "\"kind\":\"sharded\",\"status\":\"complete\",\"bytes\":4096}";
        launch::RecorderOptions caps;
        caps.eventBytes = note.size() + 10; // the note fits, the checkpoint's event does not
        launch::RunIngestor in(*store, id, {}, {}, {}, caps);
        qint64 at = 0;
        for (const QByteArray& line : {note, checkpoint}) {
            std::string record; // as the follower sends it (wire 2), without its newline
            protocol::appendLineRecord(record, 2, "attempt-0/rank-0.events", at, at + line.size() + 1, line.toStdString(), false);
            record.pop_back();
            in.take(QByteArray::fromStdString(record));
            at += line.size() + 1;
        }
        in.saveOffsets();
        QVERIFY(store->flush());
        auto readerOpened = store::RunReader::open(tmp_.filePath(QStringLiteral("budget.sqlite")));
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        QCOMPARE(reader->events(id).size(), 1); // the note
        const QList<store::CheckpointRecord> checkpoints = reader->checkpoints(id);
        QCOMPARE(checkpoints.size(), 1);
        QCOMPARE(checkpoints[0].path, QStringLiteral("/ck/step-000005"));
        QCOMPARE(checkpoints[0].step, 5);
        QCOMPARE(checkpoints[0].bytes, 4096);
    }

    // Bad input: a run that is not detached, an unknown run, a detached run
    // whose directory is gone.
    void badInputIsExplained()
    {
        const QString db = tmp_.filePath(QStringLiteral("outlive.sqlite"));
        CliResult r = cli({QStringLiteral("attach"), QStringLiteral("99"), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("99")), qPrintable(describe(r)));
        r = cli({QStringLiteral("attach"), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        const QString dir = runDirOf(db, 1);
        QVERIFY(QDir(dir).removeRecursively());
        r = cli({QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("no run directory")), qPrintable(describe(r)));
    }
};

QTEST_MAIN(LauncherDetach)
#include "tst_launcher_detach.moc"
