// shardbench-cli end to end: `run` launches the real core (locally and over
// SSH with a hostfile), Ctrl-C cancels cleanly, `runs`, `show`, `metrics`
// and `logs` read the store back, and bad input gets a sentence and a
// non-zero exit, never a crash or a hang (among it an unreachable host, which
// the pre-flight refuses, exit 2). What the pre-flight refuses on this
// machine: tst_launcher_cli_preflight.cpp.
#include "cli_suite.hpp"
#include "launcher_test_support.hpp"
#include "../run_store_fixture.hpp"
#include "../safe_signal.hpp"

#include "annotate_commands.hpp"
#include "launch/detach/attach_target.hpp"
#include "store/sqlite_run_store.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QSysInfo>
#include <QThread>
#include <QSet>
#include <QTest>

#include <cmath>
#include <csignal>
#include <functional>
#include <sstream>

using namespace sb::test;
using namespace sb::store::test;

namespace {

// A failure message that does not itself drive the terminal of whoever reads it.
QString printableForTest(QString text)
{
    for (QChar& c : text)
        if (c.unicode() < 0x20 && c != QLatin1Char('\n')) c = QLatin1Char('?');
        else if (c.unicode() >= 0x7f && c.unicode() < 0xa0) c = QLatin1Char('?');
    return text;
}

} // namespace

class LauncherCli : public CliSuite {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(prepare(true, 20), QString());
        qunsetenv("SSH_AUTH_SOCK");
    }

    void runsLocallyAndReadsTheStoreBack()
    {
        // The default core is the one next to shardbench-cli.
        const Result r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_,
                              QStringLiteral("--name"), QStringLiteral("cli run"), QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QLatin1String(") completed")), qPrintable(describe(r)));
        QVERIFY(r.out.contains(QLatin1String("steps     20/20, final loss")));
        QVERIFY(r.err.contains(QLatin1String("step 20/20")));
        QVERIFY(r.err.contains(QLatin1String("mem r0 ")));

        Result runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_});
        QCOMPARE(runs.code, 0);
        QVERIFY2(runs.out.contains(QLatin1String("cli run")) && runs.out.contains(QLatin1String("completed")), qPrintable(runs.out));

        Result show = cli({QStringLiteral("show"), QStringLiteral("cli run"), QStringLiteral("--db"), db_});
        QVERIFY2(show.code == 0, qPrintable(describe(show)));
        QVERIFY(show.out.contains(QLatin1String("status       completed")));
        QVERIFY(show.out.contains(QLatin1String("transformer")));
        QVERIFY(show.out.contains(QLatin1String("r1  steps 20")));
        show = cli({QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json"), QStringLiteral("--db"), db_});
        const QJsonObject o = QJsonDocument::fromJson(show.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("status")).toString(), QStringLiteral("completed"));
        QCOMPARE(o.value(QLatin1String("world_size")).toInt(), 2);
        QCOMPARE(o.value(QLatin1String("plan")).toObject().value(QLatin1String("format")).toString(), QStringLiteral("shardbench-plan"));
        show = cli({QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--plan"), QStringLiteral("--db"), db_});
        QFile planFile(plan_);
        QVERIFY(planFile.open(QIODevice::ReadOnly));
        QCOMPARE(show.out.toUtf8(), planFile.readAll());

        Result csv = cli({QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--csv"), QStringLiteral("--db"), db_});
        QCOMPARE(csv.code, 0);
        const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 41);
        QVERIFY(lines[0].startsWith(QLatin1String("attempt,rank,step,t,loss,lr,grad_norm,tokens,tokens_per_s,step_ms")));
        QVERIFY(lines[0].endsWith(QLatin1String(",eval_loss,eval_perplexity")));
        for (const QString& l : lines) QCOMPARE(l.count(QLatin1Char(',')), 19);
        csv = cli({QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--metric"), QStringLiteral("mem_peak"),
                   QStringLiteral("--rank"), QStringLiteral("1"), QStringLiteral("--csv"), QStringLiteral("--db"), db_});
        QCOMPARE(csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 21);
        const Result table = cli({QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--db"), db_});
        QCOMPARE(table.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 41);
        // Every rank's system samples (the first at its start), stored by the
        // supervised run's recorder: host RSS, and no GPU fields on a CPU run.
        const Result system = cli({QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--system"), QStringLiteral("--db"), db_});
        QVERIFY2(system.code == 0, qPrintable(describe(system)));
        const QStringList samples = system.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(samples.value(0), QStringLiteral("attempt,rank,t,cpu_util,host_rss,gpu_util,gpu_power_w,gpu_temp_c,gpu_sm_clock_mhz"));
        QSet<QString> sampledRanks;
        for (const QString& l : samples.mid(1)) {
            const QStringList f = l.split(QLatin1Char(','));
            QCOMPARE(f.size(), 9);
            sampledRanks.insert(f[1]);
            QVERIFY2(f[3].toDouble() >= 0 && f[4].toLongLong() > (10LL << 20) && f[5].isEmpty(), qPrintable(l));
        }
        QCOMPARE(sampledRanks.size(), 2);

        const Result launcherLogs = cli({QStringLiteral("logs"), QStringLiteral("1"), QStringLiteral("--launcher"), QStringLiteral("--db"), db_});
        QVERIFY(launcherLogs.out.contains(QLatin1String("[launcher] rank 0 started on localhost")));
        // Each rank's own log tells the run's story (it was empty for a run that went well).
        const Result rankLogs = cli({QStringLiteral("logs"), QStringLiteral("1"), QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("--db"), db_});
        QCOMPARE(rankLogs.code, 0);
        for (const char* want : {"[rank 0] started on ", "[rank 0] plan: 3 shard unit(s)", "[rank 0] step 1/20  loss ", "[rank 0] step 10/20  loss ",
                                 "[rank 0] step 20/20  loss ", "[rank 0] done: ok, 20 steps, final loss "})
            QVERIFY2(rankLogs.out.contains(QLatin1String(want)), qPrintable(QLatin1String(want) + QStringLiteral(" not in:\n") + rankLogs.out));
        QVERIFY2(!rankLogs.out.contains(QLatin1String("step 2/20")), "progress every 10 steps, not every step");
    }

    void failedRunKeepsReasonAndRankLogs()
    {
        // A plan whose data file is missing: every rank says so and exits 2.
        QFile in(plan_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject training = plan.value(QLatin1String("training")).toObject();
        training.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("tokens")},
                                                            {QStringLiteral("path"), tmp_.filePath(QStringLiteral("no-train.bin"))}});
        plan.insert(QStringLiteral("training"), training);
        const QString badPlan = tmp_.filePath(QStringLiteral("bad-data.json"));
        QCOMPARE(SshdFixture::writeFile(badPlan, QJsonDocument(plan).toJson()), QString());
        const Result r = cli({QStringLiteral("run"), badPlan, QStringLiteral("--db"), db_, QStringLiteral("--name"),
                              QStringLiteral("bad data"), QStringLiteral("--max-restarts"), QStringLiteral("2")});
        QVERIFY2(r.code == 1, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QLatin1String("failed: rank")) && r.out.contains(QLatin1String("no-train.bin")), qPrintable(describe(r)));
        QVERIFY2(!r.out.contains(QLatin1String("restart")), "bad input is not retried");
        const Result show = cli({QStringLiteral("show"), QStringLiteral("bad data"), QStringLiteral("--db"), db_});
        QVERIFY(show.out.contains(QLatin1String("status       failed")));
        QVERIFY(show.out.contains(QLatin1String("exited with code 2 (bad input)")));
        // The failing rank's own log says why. (Its peer may have died in the
        // Gloo rendezvous instead, when the failing rank left first.)
        const QRegularExpressionMatch failing = QRegularExpression(QStringLiteral("failing +rank (\\d+)")).match(show.out);
        QVERIFY2(failing.hasMatch(), qPrintable(show.out));
        const QString rank = failing.captured(1);
        const Result logs = cli({QStringLiteral("logs"), QStringLiteral("bad data"), QStringLiteral("--rank"), rank,
                                 QStringLiteral("--db"), db_});
        QCOMPARE(logs.code, 0);
        QVERIFY2(logs.out.contains(QLatin1String("no-train.bin")), qPrintable(logs.out));
        for (const QString& l : logs.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(l.startsWith(QStringLiteral("[rank %1]").arg(rank)), qPrintable(l));
        const Result all = cli({QStringLiteral("logs"), QStringLiteral("bad data"), QStringLiteral("--db"), db_});
        QVERIFY(all.out.contains(QLatin1String("[launcher]")) && all.out.contains(QLatin1String("[rank 0]")));
    }

    // What the Runs area's context menu does, on the command line: the runs
    // of the two tests above renamed, tagged, annotated, found by tag, their
    // logs searched, and deleted only when nothing may still be training and
    // someone said yes.
    void renamesTagsNotesAndDeletesRuns()
    {
        const Result grep = cli({QStringLiteral("logs"), QStringLiteral("1"), QStringLiteral("--grep"), QStringLiteral("STEP 20/20"),
                                 QStringLiteral("--db"), db_});
        QCOMPARE(grep.code, 0);
        QCOMPARE(grep.out.count(QLatin1Char('\n')), 2); // rank 0's and rank 1's
        QVERIFY(grep.out.contains(QLatin1String("[rank 1] step 20/20")));

        Result r = cli({QStringLiteral("rename"), QStringLiteral("cli run"), QStringLiteral("baseline"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("run 1 \"cli run\" is now \"baseline\"")), qPrintable(describe(r)));
        r = cli({QStringLiteral("tag"), QStringLiteral("baseline"), QStringLiteral("lr-sweep, fp32"), QStringLiteral("fp32"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("tags lr-sweep, fp32")), qPrintable(describe(r)));
        r = cli({QStringLiteral("tag"), QStringLiteral("1"), QStringLiteral("fp32"), QStringLiteral("--remove"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("tags lr-sweep\n")), qPrintable(describe(r)));
        r = cli({QStringLiteral("note"), QStringLiteral("1"), QStringLiteral("first try\nseed 0"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const Result show = cli({QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json"), QStringLiteral("--db"), db_});
        const QJsonObject o = QJsonDocument::fromJson(show.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("name")).toString(), QStringLiteral("baseline"));
        QCOMPARE(o.value(QLatin1String("tags")).toArray(), QJsonArray{QStringLiteral("lr-sweep")});
        QCOMPARE(o.value(QLatin1String("notes")).toString(), QStringLiteral("first try\nseed 0"));
        r = cli({QStringLiteral("runs"), QStringLiteral("--tag"), QStringLiteral("lr-sweep"), QStringLiteral("--db"), db_});
        QVERIFY2(r.out.contains(QLatin1String("baseline")) && !r.out.contains(QLatin1String("bad data")), qPrintable(describe(r)));

        // A run that may still be training (its launcher, this test, lives) is never deleted.
        sb::store::NewRun live = bareRun(QStringLiteral("still-running"), QStringLiteral("local"), 1, 1.7e9);
        live.launcherHost = QSysInfo::machineHostName();
        live.launcherPid = QCoreApplication::applicationPid();
        auto [store, liveId, error] = storeWithRun(db_, live);
        QVERIFY2(store, qPrintable(error));
        sb::store::RunUpdate running;
        running.runId = liveId;
        running.status = sb::store::RunStatus::Running;
        store->updateRun(running);
        sb::store::NewRun ended = live;
        ended.uid = QStringLiteral("ended-with-a-checkpoint");
        const qint64 endedId = store->createRun(ended).value();
        sb::store::CheckpointRecord ckpt;
        ckpt.runId = endedId;
        ckpt.step = 10;
        ckpt.path = tmp_.filePath(QStringLiteral("ckpt/step-10"));
        ckpt.status = QStringLiteral("complete");
        store->addCheckpoint(ckpt);
        sb::store::RunUpdate failed;
        failed.runId = endedId;
        failed.status = sb::store::RunStatus::Failed;
        store->updateRun(failed);
        QVERIFY(store->flush());
        store.reset();
        r = cli({QStringLiteral("delete"), QStringLiteral("bad data"), QString::number(liveId), QStringLiteral("--yes"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("stop it before deleting it (nothing was deleted)")), qPrintable(describe(r)));
        // Without a terminal to ask on, only --yes deletes.
        r = cli({QStringLiteral("delete"), QStringLiteral("bad data"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("needs --yes")), qPrintable(describe(r)));
        QCOMPARE(cli({QStringLiteral("show"), QStringLiteral("bad data"), QStringLiteral("--db"), db_}).code, 0);
        // A person asked: "n" keeps it, "y" deletes it; its checkpoint files are named, not touched.
        std::ostringstream out, err;
        std::istringstream no("n\n");
        const std::vector<std::string> args{std::to_string(endedId), "--db", db_.toStdString()};
        QCOMPARE(sb::cli::cmdDelete(args, no, true, out, err), 0);
        QVERIFY(QString::fromStdString(err.str()).contains(QLatin1String("Checkpoint files stay on disk. [y/N]")));
        QVERIFY(QString::fromStdString(out.str()).contains(QLatin1String("nothing deleted")));
        std::istringstream yes("y\n");
        out.str({});
        QCOMPARE(sb::cli::cmdDelete(args, yes, true, out, err), 0);
        QVERIFY2(QString::fromStdString(out.str()).contains(QStringLiteral("its checkpoint stays on disk: ") + ckpt.path), out.str().c_str());
        QCOMPARE(cli({QStringLiteral("show"), QString::number(endedId), QStringLiteral("--db"), db_}).code, 2);
        r = cli({QStringLiteral("delete"), QStringLiteral("bad data"), QStringLiteral("--yes"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("deleted run 2 \"bad data\"")), qPrintable(describe(r)));
        r = cli({QStringLiteral("logs"), QStringLiteral("bad data"), QStringLiteral("--db"), db_});
        QCOMPARE(r.code, 2);
        QCOMPARE(cli({QStringLiteral("show"), QString::number(liveId), QStringLiteral("--db"), db_}).code, 0);
        // A note from standard input, within reason.
        std::istringstream note("from stdin\n");
        out.str({});
        QCOMPARE(sb::cli::cmdNote({"1", "-", "--db", db_.toStdString()}, note, out, err), 0);
        std::istringstream huge(std::string(1 << 20, 'x'));
        err.str({});
        QCOMPARE(sb::cli::cmdNote({"1", "-", "--db", db_.toStdString()}, huge, out, err), 2);
        QVERIFY2(QString::fromStdString(err.str()).contains(QLatin1String("longer than 65536 bytes (nothing was saved)")), err.str().c_str());
        r = cli({QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--db"), db_});
        QVERIFY2(r.out.contains(QLatin1String("notes        from stdin")), qPrintable(r.out));
        // Misuse is a sentence.
        r = cli({QStringLiteral("tag"), QStringLiteral("1"), QStringLiteral("--remove"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("--remove needs the tags")), qPrintable(describe(r)));
        r = cli({QStringLiteral("rename"), QStringLiteral("no-such-run"), QStringLiteral("x"), QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("no run")), qPrintable(describe(r)));
    }

    void ctrlCCancelsCleanly()
    {
        const QString longPlan = tmp_.filePath(QStringLiteral("long.json"));
        QCOMPARE(writeTinyPlan(longPlan, 1, 2, 1000000), QString());
        QProcess p;
        dieWithParent(p, SIGTERM);
        p.start(cliPath(), {QStringLiteral("run"), longPlan, QStringLiteral("--db"), db_, QStringLiteral("--name"), QStringLiteral("to cancel")});
        QVERIFY(p.waitForStarted());
        QString uid;
        QByteArray err;
        QElapsedTimer t;
        t.start();
        static const QRegularExpression uidRe(QStringLiteral("run \\d+ \\(([0-9a-f-]+)\\)"));
        while (uid.isEmpty() && t.elapsed() < 30000) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
            const auto m = uidRe.match(QString::fromUtf8(err));
            if (m.hasMatch()) uid = m.captured(1);
        }
        QVERIFY2(!uid.isEmpty(), err.constData());
        // Wait until both ranks run.
        QTRY_VERIFY_WITH_TIMEOUT(processesMentioning(uid.toUtf8()).size() >= 2, 30000);
        QTest::qWait(1500);
        QElapsedTimer sinceInterrupt;
        sinceInterrupt.start();
        sb::test::signalProcess(p.processId(), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QVERIFY2(sinceInterrupt.elapsed() < 6000, qPrintable(QString::number(sinceInterrupt.elapsed())));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const auto left = waitUntilNoneMention(uid.toUtf8(), 3000);
        QVERIFY2(left.isEmpty(), qPrintable(sb::test::describe(left)));
        const Result show = cli({QStringLiteral("show"), uid, QStringLiteral("--db"), db_});
        QVERIFY2(show.out.contains(QLatin1String("status       cancelled")), qPrintable(show.out));
        QVERIFY(show.out.contains(QLatin1String("SIGINT")));
    }

    void runsOverSshWithAHostfile()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd.dir);
        const QString err = sshd.start({QStringLiteral("127.0.0.6"), QStringLiteral("127.0.0.7")});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const QString hostfile = tmp_.filePath(QStringLiteral("hostfile"));
        QCOMPARE(SshdFixture::writeFile(hostfile, QStringLiteral("# two test hosts\n%1 slots=2\n\n%2 slots=2  # second\n")
                                                      .arg(sshd.alias(0), sshd.alias(1))
                                                      .toUtf8()),
                 QString());
        const QString plan = tmp_.filePath(QStringLiteral("plan22.json"));
        QCOMPARE(writeTinyPlan(plan, 2, 2, 10), QString());
        const QString known = tmp_.filePath(QStringLiteral("cli_known_hosts")); // empty: both keys are new
        const QStringList common = {QStringLiteral("--hosts"), hostfile, QStringLiteral("--db"), db_,
                                    QStringLiteral("--ssh-config"), sshd.configFile, QStringLiteral("--known-hosts"), known,
                                    QStringLiteral("--ssh-dir"), sshd.sshDir, QStringLiteral("--remote-core"), corePath(),
                                    QStringLiteral("--remote-dir"), tmp_.filePath(QStringLiteral("remote")),
                                    QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")};
        Result r = cli(QStringList{QStringLiteral("run"), plan} + common);
        QVERIFY2(r.code == 2, qPrintable(describe(r))); // the pre-flight's host probe refuses it: nothing starts
        QVERIFY2(r.err.contains(QLatin1String("unknown host key")) && r.err.contains(QLatin1String("--accept-new-host-key")), qPrintable(describe(r)));
        r = cli(QStringList{QStringLiteral("run"), plan, QStringLiteral("--accept-new-host-key")} + common);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(QLatin1String("backend   ssh (node-a slots=2, node-b slots=2)")));
        QFile k(known);
        QVERIFY(k.open(QIODevice::ReadOnly));
        QCOMPARE(k.readAll().count('\n'), 2);
        // Now known: no flag needed.
        r = cli(QStringList{QStringLiteral("run"), plan} + common);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        // A remote core that is not there: the pre-flight names it on each host, nothing starts.
        QStringList missing = common;
        const QString nowhere = tmp_.filePath(QStringLiteral("no/such/shardbench-core"));
        missing[missing.indexOf(QStringLiteral("--remote-core")) + 1] = nowhere;
        r = cli(QStringList{QStringLiteral("run"), plan} + missing);
        QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("node-a: shardbench-core not found (%1)").arg(nowhere)) &&
                     r.err.contains(QStringLiteral("node-b: shardbench-core not found")),
                 qPrintable(describe(r)));
    }

    void killedLauncherLeavesNoRankBehind()
    {
        // SIGKILL leaves the launcher no chance to clean up: local ranks die
        // with it (PR_SET_PDEATHSIG), remote ranks when their channel closes.
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd-kill")));
        QDir().mkpath(sshd.dir);
        const QString err = sshd.start({QStringLiteral("127.0.0.8"), QStringLiteral("127.0.0.9")});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const QString local = tmp_.filePath(QStringLiteral("long12.json"));
        const QString remote = tmp_.filePath(QStringLiteral("long22.json"));
        QCOMPARE(writeTinyPlan(local, 1, 2, 1000000), QString());
        QCOMPARE(writeTinyPlan(remote, 2, 2, 1000000), QString());
        const QList<QStringList> runs = {
            {QStringLiteral("run"), local, QStringLiteral("--db"), db_},
            {QStringLiteral("run"), remote, QStringLiteral("--db"), db_, QStringLiteral("--host"), sshd.alias(0), QStringLiteral("--host"),
             sshd.alias(1), QStringLiteral("--ssh-config"), sshd.configFile, QStringLiteral("--known-hosts"), sshd.knownHostsFile,
             QStringLiteral("--ssh-dir"), sshd.sshDir, QStringLiteral("--remote-core"), corePath(), QStringLiteral("--remote-dir"),
             tmp_.filePath(QStringLiteral("remote"))},
        };
        for (const QStringList& args : runs) {
            QProcess p;
            dieWithParent(p, SIGTERM);
            p.start(cliPath(), args);
            QVERIFY(p.waitForStarted());
            QString uid;
            QByteArray text;
            QElapsedTimer t;
            t.start();
            static const QRegularExpression uidRe(QStringLiteral("run \\d+ \\(([0-9a-f-]+)\\)"));
            while (uid.isEmpty() && t.elapsed() < 30000) {
                p.waitForReadyRead(200);
                text += p.readAllStandardError();
                const auto m = uidRe.match(QString::fromUtf8(text));
                if (m.hasMatch()) uid = m.captured(1);
            }
            QVERIFY2(!uid.isEmpty(), text.constData());
            auto cores = [&] {
                int n = 0;
                for (const ProcessInfo& i : processesMentioning(uid.toUtf8())) n += i.comm == "shardbench-core" ? 1 : 0;
                return n;
            };
            QTRY_COMPARE_WITH_TIMEOUT(cores(), args.contains(remote) ? 4 : 2, 30000);
            QTest::qWait(500);
            const qint64 launcherPid = p.processId();
            sb::test::signalProcess(launcherPid, SIGKILL);
            QVERIFY(p.waitForFinished(5000));
            const auto left = waitUntilNoneMention(uid.toUtf8(), 10000);
            QVERIFY2(left.isEmpty(), qPrintable(sb::test::describe(left)));
            // The store still says "running"; readers see that nobody supervises it.
            const Result show = cli({QStringLiteral("show"), uid, QStringLiteral("--db"), db_});
            QVERIFY2(show.out.contains(QLatin1String("status       running (abandoned: its launcher")), qPrintable(show.out));
            // The next `runs` finds the launcher gone and marks the run failed, saying when it was last heard from.
            const Result list = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json")});
            QCOMPARE(list.code, 0);
            QJsonObject row;
            for (const QJsonValue& v : QJsonDocument::fromJson(list.out.toUtf8()).array())
                if (v.toObject().value(QLatin1String("uid")).toString() == uid) row = v.toObject();
            QCOMPARE(row.value(QLatin1String("status")).toString(), QStringLiteral("failed"));
            QCOMPARE(row.value(QLatin1String("abandoned")).toBool(true), false);
            const Result after = cli({QStringLiteral("show"), uid, QStringLiteral("--db"), db_});
            const QRegularExpression reasonRe(
                QStringLiteral("reason +the launcher \\(pid %1 on [^)]+\\) is gone; last heard from at \\d{4}-\\d\\d-\\d\\dT").arg(launcherPid));
            QVERIFY2(reasonRe.match(after.out).hasMatch(), qPrintable(after.out));
        }
    }

    // A run directory is written by whoever can write to the cluster: a reason
    // in state.json, rank log lines, supervisor lines, a name, a tag or a note
    // holding terminal control sequences (a title change, a screen clear) are
    // printed escaped by attach, show, logs and runs, never run by the terminal.
    void terminalControlsFromTheClusterArePrintedEscaped()
    {
        const QString dir = tmp_.filePath(QStringLiteral("hostile-run"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/attempt-0")));
        const QByteArray osc = "\\u001b]0;owned\\u0007", clear = "\\u001b[2J", csi = "\\u009b2J";
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/supervisor.log"),
                                        "{\"t\":1700000000,\"l\":\"supervisor " + osc + clear + " says\"}\n"),
                 QString());
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/attempt-0/rank-0.log"),
                                        "{\"t\":1700000000,\"s\":\"e\",\"l\":\"rank " + osc + " line " + clear + csi + " end\"}\n"),
                 QString());
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/attempt-0/rank-0.events"),
                                        "{\"type\":\"hello\",\"v\":1,\"rank\":0,\"t\":1700000000,\"host\":\"h" + clear + "\",\"world\":1}\n"),
                 QString());
        QCOMPARE(SshdFixture::writeFile(dir + QStringLiteral("/state.json"),
                                        "{\"version\":1,\"run_id\":\"hostile\",\"status\":\"failed\",\"reason\":\"boom " + osc + clear +
                                            "\",\"attempt\":0,\"world_size\":1,\"supervisor\":{\"pid\":1,\"host\":\"here\"},"
                                            "\"updated_at\":1700000000}\n"),
                 QString());
        const QString db = tmp_.filePath(QStringLiteral("hostile.sqlite"));
        qint64 id = -1;
        {
            sb::launch::AttachTarget t;
            t.runDir = dir;
            t.supervise = binDir() + QStringLiteral("/shardbench-supervise");
            sb::store::NewRun row = bareRun(QStringLiteral("hostile"), QStringLiteral("local"), 1);
            row.name = QStringLiteral("name\x1b]0;owned\x07");
            row.runDir = dir;
            row.attachJson = t.toJson();
            auto opened = storeWithRun(db, row);
            QVERIFY2(opened.store, qPrintable(opened.error));
            auto& store = opened.store;
            id = opened.id;
            QVERIFY(id > 0);
            sb::store::RunUpdate u;
            u.runId = id;
            u.tags = QStringList{QStringLiteral("tag\x1b[2J")};
            u.notes = QStringLiteral("note\x1b[2J\nsecond line");
            store->updateRun(u);
            QVERIFY(store->flush());
        }
        auto expectEscaped = [](const char* what, const Result& r, std::initializer_list<const char*> wants) {
            const QString all = r.out + r.err;
            QVERIFY2(!all.contains(QChar(0x1b)) && !all.contains(QChar(0x07)) && !all.contains(QChar(0x9b)),
                     qPrintable(QLatin1String(what) + QStringLiteral(" printed a control character:\n") + printableForTest(all)));
            for (const char* want : wants)
                QVERIFY2(all.contains(QLatin1String(want)), qPrintable(QLatin1String(what) + QStringLiteral(": \"") + QLatin1String(want) +
                                                                     QStringLiteral("\" not in:\n") + all));
        };
        const QString ref = QString::number(id);
        const Result attach = cli({QStringLiteral("attach"), ref, QStringLiteral("--no-follow"), QStringLiteral("--logs"), QStringLiteral("all"),
                                   QStringLiteral("--db"), db});
        QVERIFY2(attach.code == 1, qPrintable(describe(attach))); // failed, as its state says
        expectEscaped("attach", attach, {"boom \\x1b]0;owned\\x07\\x1b[2J"});
        const Result show = cli({QStringLiteral("show"), ref, QStringLiteral("--db"), db});
        QCOMPARE(show.code, 0);
        expectEscaped("show", show, {"reason       boom \\x1b]0;owned\\x07\\x1b[2J", "name\\x1b]0;owned\\x07", "tag\\x1b[2J",
                                     "note\\x1b[2J\n               second line"});
        const Result rankLog = cli({QStringLiteral("logs"), ref, QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("--no-fetch"),
                                    QStringLiteral("--db"), db});
        QCOMPARE(rankLog.code, 0);
        expectEscaped("logs --rank 0", rankLog, {"rank \\x1b]0;owned\\x07 line \\x1b[2J\\u009b2J end"});
        const Result supervisorLog = cli({QStringLiteral("logs"), ref, QStringLiteral("--launcher"), QStringLiteral("--db"), db});
        QCOMPARE(supervisorLog.code, 0);
        expectEscaped("logs --launcher", supervisorLog, {"supervisor \\x1b]0;owned\\x07\\x1b[2J says"});
        const Result runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), db});
        QCOMPARE(runs.code, 0);
        expectEscaped("runs", runs, {"name\\x1b]0;"});
    }

    void badInputGetsASentenceAndAnExitCode()
    {
        const QString markers = tmp_.filePath(QStringLiteral("cli-markers"));
        QDir().mkpath(markers);
        const QString garbage = tmp_.filePath(QStringLiteral("garbage.json"));
        QCOMPARE(SshdFixture::writeFile(garbage, "{ not json"), QString());
        const QString badHostfile = tmp_.filePath(QStringLiteral("bad.hostfile"));
        QCOMPARE(SshdFixture::writeFile(badHostfile, "good slots=1\nbad slots=x\n"), QString());
        const QString config = tmp_.filePath(QStringLiteral("ssh_config_nowhere"));
        QCOMPARE(SshdFixture::writeFile(config, "Host nowhere\n  HostName 127.0.0.1\n  Port 1\n"), QString());
        const QString dot = tmp_.filePath(QStringLiteral("empty-ssh-dir"));
        QDir().mkpath(dot);

        struct Case {
            QStringList args;
            int code;
            const char* message;
        };
        const QList<Case> cases = {
            {{QStringLiteral("run"), tmp_.filePath(QStringLiteral("missing.json")), QStringLiteral("--db"), db_}, 2, "cannot read"},
            {{QStringLiteral("run"), garbage, QStringLiteral("--db"), db_}, 2, "garbage.json"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--host"), QStringLiteral("a:3"), QStringLiteral("--db"), db_}, 2, "slots"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--hosts"), badHostfile, QStringLiteral("--db"), db_}, 2, "bad.hostfile:2"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--hosts"), tmp_.filePath(QStringLiteral("none"))}, 2, "cannot read the hostfile"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--host"), QStringLiteral("a;touch %1/x").arg(markers), QStringLiteral("--db"), db_}, 2, "not allowed"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--host"), QStringLiteral("$(touch %1/y)").arg(markers), QStringLiteral("--db"), db_}, 2, "not allowed"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--host"), QStringLiteral("a")}, 2, "only one of"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--core"), tmp_.filePath(QStringLiteral("nope"))}, 2, "not found"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--max-restarts"), QStringLiteral("-1")}, 2, "--max-restarts"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--bogus")}, 2, "unknown option --bogus"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--db"), tmp_.path()}, 2, "folder"},
            {{QStringLiteral("run"), plan_, QStringLiteral("--host"), QStringLiteral("nowhere:2"), QStringLiteral("--ssh-config"), config,
              QStringLiteral("--ssh-dir"), dot, QStringLiteral("--known-hosts"), tmp_.filePath(QStringLiteral("kh")), QStringLiteral("--connect-tries"),
              QStringLiteral("2"), QStringLiteral("--db"), db_},
             2, "nowhere: not reachable"},
            {{QStringLiteral("show"), QStringLiteral("no-such-run"), QStringLiteral("--db"), db_}, 2, "no run"},
            {{QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--metric"), QStringLiteral("nope"), QStringLiteral("--db"), db_}, 2, "unknown metric"},
            {{QStringLiteral("logs"), QStringLiteral("1"), QStringLiteral("--rank"), QStringLiteral("x"), QStringLiteral("--db"), db_}, 2, "--rank"},
            {{QStringLiteral("runs"), QStringLiteral("--db"), tmp_.filePath(QStringLiteral("absent.sqlite"))}, 2, "no run store"},
            {{QStringLiteral("frobnicate")}, 2, "unknown command"},
        };
        for (const Case& c : cases) {
            const Result r = cli(c.args, 60000);
            const QString all = r.out + r.err;
            QVERIFY2(r.code == c.code && all.contains(QLatin1String(c.message)),
                     qPrintable(c.args.join(QLatin1Char(' ')) + QLatin1Char('\n') + describe(r)));
            QVERIFY2(r.ms < 30000, qPrintable(c.args.join(QLatin1Char(' '))));
        }
        QVERIFY2(QDir(markers).isEmpty(), "a host name was executed");
    }
};

QTEST_GUILESS_MAIN(LauncherCli)
#include "tst_launcher_cli.moc"
