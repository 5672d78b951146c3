// SSH runs of the real shardbench-core against a real OpenSSH server on
// loopback (127.0.0.2, 127.0.0.3, ... as hosts): 2 hosts x 2 ranks complete
// and land in the store; a killed rank or a host that drops off stops every
// rank on every host with nothing left behind; unknown and changed host keys
// are refused; user text in names and paths never reaches a shell as code.
#include "launcher_test_support.hpp"
#include "run_harness.hpp"

#include "launch/prepared_launch.hpp"
#include "store/run_reader.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>

#include <cmath>
#include <csignal>

using namespace sb;
using namespace sb::test;

namespace {

void expectNoProcessesOf(const QString& uid, int timeoutMs = 5000)
{
    const auto left = waitUntilNoneMention(uid.toUtf8(), timeoutMs);
    QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left behind:\n") + describe(left)));
}

} // namespace

class LauncherSsh : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::unique_ptr<SshdFixture> sshd_;
    launch::FixedHostKeyPolicy refuseNew_{launch::HostKeyDecision::Reject};
    launch::FixedHostKeyPolicy acceptNew_{launch::HostKeyDecision::AcceptAndRemember};

    launch::RunConfig sshConfig(const QString& plan, const SshdFixture& f, int hosts)
    {
        launch::RunConfig c;
        c.planPath = plan;
        c.name = QStringLiteral("ssh test");
        c.backend = launch::BackendKind::Ssh;
        for (int i = 0; i < hosts; ++i) c.hosts << launch::HostSpec{f.alias(i), 2};
        c.remoteCore = corePath();
        c.remoteDir = tmp_.filePath(QStringLiteral("remote"));
        c.ssh.configFile = f.configFile;
        c.ssh.knownHostsFile = f.knownHostsFile;
        c.ssh.sshDir = f.sshDir;
        c.ssh.connectTimeoutS = 10;
        c.extraEnv.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
        return c;
    }

    QString plan(const QString& name, int nodes, int steps)
    {
        const QString path = tmp_.filePath(name);
        const QString err = writeTinyPlan(path, nodes, 2, steps);
        return err.isEmpty() ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(corePath()), qPrintable(corePath() + QStringLiteral(" is missing")));
        // Only the keys the tests give: never an agent of the person running them.
        qunsetenv("SSH_AUTH_SOCK");
        QVERIFY(tmp_.isValid());
        sshd_ = std::make_unique<SshdFixture>(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd_->dir);
        const QString err = sshd_->start({QStringLiteral("127.0.0.2"), QStringLiteral("127.0.0.3")});
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void twoHostsTimesTwoRanksComplete()
    {
        RunHarness h(tmp_.filePath(QStringLiteral("complete.sqlite")));
        QCOMPARE(h.prepare(sshConfig(plan(QStringLiteral("p22.json"), 2, 20), *sshd_, 2), &refuseNew_), QString());
        h.start();
        QVERIFY2(h.waitFinished(120000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed,
                 qPrintable(o.reason + QLatin1Char('\n') + h.progress.join(QLatin1Char('\n')) + h.errors.join(QLatin1Char('\n'))));
        QCOMPARE(o.stepsDone, 20);
        const QString uid = h.launch().uid;
        const qint64 id = h.runId();
        h.closeStore();
        expectNoProcessesOf(uid);
        QVERIFY(QFile::exists(tmp_.filePath(QStringLiteral("remote/")) + uid + QStringLiteral("/plan.json")));

        QString err;
        auto reader = store::RunReader::open(h.dbPath(), &err);
        QVERIFY2(reader, qPrintable(err));
        const auto run = reader->run(id);
        QCOMPARE(run->status, QStringLiteral("completed"));
        QCOMPARE(run->backend, QStringLiteral("ssh"));
        QCOMPARE(run->worldSize, 4);
        QCOMPARE(run->hosts, (QStringList{QStringLiteral("node-a slots=2"), QStringLiteral("node-b slots=2")}));
        const store::MetricSeries loss = reader->series(id, store::Metric::Loss);
        QCOMPARE(loss.size(), 80);
        for (int rank = 0; rank < 4; ++rank) QCOMPARE(reader->series(id, store::Metric::StepMs, rank).size(), 20);
        // Every rank ran where it should, with LOCAL_RANK per host.
        const auto hellos = reader->events(id, QStringLiteral("hello"));
        QCOMPARE(hellos.size(), 4);
        for (const store::EventRecord& e : hellos) {
            const QJsonObject o2 = QJsonDocument::fromJson(e.json).object();
            QCOMPARE(o2.value(QLatin1String("local_rank")).toInt(), e.rank % 2);
            QCOMPARE(o2.value(QLatin1String("world")).toInt(), 4);
        }
        const auto hosts = reader->hosts();
        QCOMPARE(hosts.size(), 2);
        QCOMPARE(hosts[0].hostname, QStringLiteral("127.0.0.2"));
        QCOMPARE(hosts[1].port, sshd_->port(1));
        QVERIFY(hosts[0].keyFingerprint.contains(QLatin1String("SHA256:")));
    }

    void killedRemoteRankStopsEveryHost()
    {
        RunHarness h(tmp_.filePath(QStringLiteral("kill.sqlite")));
        QCOMPARE(h.prepare(sshConfig(plan(QStringLiteral("p22long.json"), 2, 1000000), *sshd_, 2), &refuseNew_), QString());
        h.start();
        // The pid the remote wrapper reported is the core's.
        QCOMPARE(h.killRankWhenTraining(3, 3, 120000, 30000), QString());
        QVERIFY2(h.msFromStopToFinish < 6000, qPrintable(QStringLiteral("took %1 ms").arg(h.msFromStopToFinish)));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QVERIFY2(o.failingRank == 3, qPrintable(o.reason));
        QCOMPARE(o.failingHost, QStringLiteral("node-b"));
        QVERIFY2(o.reason.contains(QLatin1String("signal 9")), qPrintable(o.reason));
        const QString uid = h.launch().uid;
        const qint64 id = h.runId();
        h.closeStore();
        expectNoProcessesOf(uid);
        QString err;
        auto reader = store::RunReader::open(h.dbPath(), &err);
        QCOMPARE(reader->run(id)->status, QStringLiteral("failed"));
        QCOMPARE(reader->run(id)->failingRank, 3);
    }

    void lostHostStopsTheRun()
    {
        // A host of its own that can be taken down: its sshd and sessions die.
        SshdFixture f(tmp_.filePath(QStringLiteral("sshd-lost")));
        QDir().mkpath(f.dir);
        QString err = f.start({QStringLiteral("127.0.0.4"), QStringLiteral("127.0.0.5")});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        RunHarness h(tmp_.filePath(QStringLiteral("lost.sqlite")));
        QCOMPARE(h.prepare(sshConfig(plan(QStringLiteral("p22lost.json"), 2, 1000000), f, 2), &refuseNew_), QString());
        h.start();
        QVERIFY2(h.waitFor([&] { return h.minStepOfAllRanks() >= 3; }, 120000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        QElapsedTimer sinceLoss;
        sinceLoss.start();
        f.killHost(1);
        QVERIFY(h.waitFinished(30000));
        QVERIFY2(sinceLoss.elapsed() < 6000, qPrintable(QStringLiteral("took %1 ms").arg(sinceLoss.elapsed())));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QCOMPARE(o.failingHost, QStringLiteral("node-b"));
        QVERIFY2(o.failingRank == 2 || o.failingRank == 3, qPrintable(o.reason));
        QVERIFY2(o.reason.contains(QLatin1String("lost")), qPrintable(o.reason));
        const QString uid = h.launch().uid;
        h.closeStore();
        // The ranks of the lost host are stopped by their watchdogs.
        expectNoProcessesOf(uid, 8000);
    }

    void unknownHostKeyIsRefusedThenAccepted()
    {
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_unknown"));
        QCOMPARE(SshdFixture::writeFile(known, {}), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12.json"), 1, 5), *sshd_, 1);
        c.ssh.knownHostsFile = known;
        {
            RunHarness h(tmp_.filePath(QStringLiteral("hostkey.sqlite")));
            QCOMPARE(h.prepare(c, &refuseNew_), QString());
            h.start();
            QVERIFY(h.waitFinished(60000));
            const launch::RunOutcome& o = h.supervisor().outcome();
            QCOMPARE(o.status, store::RunStatus::Failed);
            QVERIFY2(o.reason.contains(QLatin1String("unknown host key")) && o.reason.contains(QLatin1String("SHA256:")),
                     qPrintable(o.reason));
            QVERIFY(h.pids.isEmpty());
            QFile k(known);
            QVERIFY(k.open(QIODevice::ReadOnly));
            QVERIFY(k.readAll().isEmpty());
        }
        {
            RunHarness h(tmp_.filePath(QStringLiteral("hostkey.sqlite")));
            QCOMPARE(h.prepare(c, &acceptNew_), QString());
            h.start();
            QVERIFY(h.waitFinished(60000));
            QVERIFY2(h.supervisor().outcome().status == store::RunStatus::Completed, qPrintable(h.supervisor().outcome().reason));
            QFile k(known);
            QVERIFY(k.open(QIODevice::ReadOnly));
            const QByteArray remembered = k.readAll();
            const QByteArray keyBlob = sshd_->hostKeyLine(0).toUtf8().split(' ').value(2);
            QVERIFY2(remembered.contains(keyBlob), remembered.constData());
        }
    }

    void changedHostKeyIsAlwaysRefused()
    {
        const QString otherKey = tmp_.filePath(QStringLiteral("impostor_key"));
        QCOMPARE(runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                          QStringLiteral("-N"), QString(), QStringLiteral("-f"), otherKey}),
                 0);
        QFile pub(otherKey + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QList<QByteArray> parts = pub.readAll().trimmed().split(' ');
        const QByteArray line = QStringLiteral("[%1]:%2 ").arg(sshd_->address(0)).arg(sshd_->port(0)).toUtf8() + parts[0] + ' ' + parts[1] + '\n';
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_changed"));
        QCOMPARE(SshdFixture::writeFile(known, line), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12c.json"), 1, 5), *sshd_, 1);
        c.ssh.knownHostsFile = known;
        RunHarness h(tmp_.filePath(QStringLiteral("changed.sqlite")));
        QCOMPARE(h.prepare(c, &acceptNew_), QString()); // even a policy that accepts new keys
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QVERIFY2(o.reason.contains(QLatin1String("CHANGED")), qPrintable(o.reason));
        QVERIFY(h.pids.isEmpty());
        QFile k(known);
        QVERIFY(k.open(QIODevice::ReadOnly));
        QCOMPARE(k.readAll(), line);
    }

    void refusesBadLoginsAndUnreachableHosts()
    {
        // A key the server does not know.
        const QString stranger = tmp_.filePath(QStringLiteral("stranger_key"));
        QCOMPARE(runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                          QStringLiteral("-N"), QString(), QStringLiteral("-f"), stranger}),
                 0);
        const QString config = tmp_.filePath(QStringLiteral("ssh_config_bad"));
        QCOMPARE(SshdFixture::writeFile(config, QStringLiteral("Host stranger\n  HostName %1\n  Port %2\n  IdentityFile %3\n"
                                                               "Host nowhere\n  HostName 127.0.0.1\n  Port 1\n")
                                                    .arg(sshd_->address(0))
                                                    .arg(sshd_->port(0))
                                                    .arg(stranger)
                                                    .toUtf8()),
                 QString());
        for (const char* host : {"stranger", "nowhere"}) {
            launch::RunConfig c = sshConfig(plan(QStringLiteral("p12b.json"), 1, 5), *sshd_, 0);
            c.hosts = {launch::HostSpec{QString::fromLatin1(host), 2}};
            c.ssh.configFile = config;
            RunHarness h(tmp_.filePath(QStringLiteral("bad.sqlite")));
            QCOMPARE(h.prepare(c, &refuseNew_), QString());
            h.start();
            QVERIFY(h.waitFinished(30000));
            const launch::RunOutcome& o = h.supervisor().outcome();
            QCOMPARE(o.status, store::RunStatus::Failed);
            const char* expected = std::strcmp(host, "stranger") == 0 ? "permission denied" : "cannot connect";
            QVERIFY2(o.reason.contains(QLatin1String(expected)), qPrintable(o.reason));
            QCOMPARE(o.failingHost, QString::fromLatin1(host));
        }
    }

    void userTextNeverExecutes()
    {
        const QString markers = tmp_.filePath(QStringLiteral("markers"));
        QVERIFY(QDir().mkpath(markers));
        // Every metacharacter at once; each payload would create a marker if run.
        const QString payload = QStringLiteral("x y;touch %1/m1;$(touch %1/m2)`touch %1/m3`'q\"\nline|touch %1/m4&&touch %1/m5 #")
                                    .arg(markers);
        const QString base = tmp_.filePath(QStringLiteral("inj"));
        const QString coreDir = base + QStringLiteral("/core ") + payload;
        QVERIFY(QDir().mkpath(coreDir));
        const QString core = coreDir + QStringLiteral("/shardbench-core");
        QVERIFY(QFile::link(corePath(), core));
        const QString workdir = base + QStringLiteral("/work ") + payload;
        QVERIFY(QDir().mkpath(workdir));

        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12i.json"), 1, 5), *sshd_, 1);
        // A run name is a label of at most 200 characters: a shorter payload.
        c.name = QStringLiteral("n;touch %1/n1;$(touch %1/n2)`touch %1/n3`'\"\n").arg(markers);
        c.remoteCore = core;
        c.remoteDir = base + QStringLiteral("/runs ") + payload;
        c.remoteWorkdir = workdir;
        c.extraEnv.insert(QStringLiteral("SB_USER_TEXT"), payload);
        RunHarness h(tmp_.filePath(QStringLiteral("inj.sqlite")));
        QCOMPARE(h.prepare(c, &refuseNew_), QString());
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + h.errors.join(QLatin1Char('\n'))));
        // The odd paths were used literally.
        QVERIFY(QFile::exists(c.remoteDir + QLatin1Char('/') + h.launch().uid + QStringLiteral("/plan.json")));
        QVERIFY2(QDir(markers).isEmpty(), "user text was executed");

        // Host aliases with shell syntax are refused before anything connects.
        for (const QString& host : {QStringLiteral("node-a;touch %1/m6").arg(markers), QStringLiteral("$(touch %1/m7)").arg(markers),
                                    QStringLiteral("`touch %1/m8`").arg(markers), QStringLiteral("node a"),
                                    QStringLiteral("node-a\ntouch %1/m9").arg(markers), QStringLiteral("'node-a'")}) {
            launch::RunConfig bad = sshConfig(plan(QStringLiteral("p12i.json"), 1, 5), *sshd_, 0);
            bad.hosts = {launch::HostSpec{host, 2}};
            const launch::PrepareResult p = launch::prepareLaunch(bad);
            QVERIFY2(!p.ok(), qPrintable(host));
            QVERIFY(p.errors.join(QLatin1Char(' ')).contains(QLatin1String("not allowed")) ||
                    p.errors.join(QLatin1Char(' ')).contains(QLatin1String("must not")));
        }
        QVERIFY2(QDir(markers).isEmpty(), "a host name was executed");
    }
};

QTEST_GUILESS_MAIN(LauncherSsh)
#include "tst_launcher_ssh.moc"
