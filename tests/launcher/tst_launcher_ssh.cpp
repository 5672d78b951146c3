// SSH runs of the real shardbench-core against a real OpenSSH server on
// loopback (127.0.0.2, 127.0.0.3, ... as hosts): 2 hosts x 2 ranks complete
// and land in the store; a killed rank, a host that drops off or a frozen
// connection stops every rank on every host with nothing left behind;
// unknown, changed and revoked host keys are refused whatever a config file
// says; user text in names and paths never reaches a shell as code.
// - hostKeyPolicyCannotBeWeakened: a lax config given with --ssh-config or
//   found as SSH_DIR/config, known_hosts files set to /dev/null, @revoked and
//   @cert-authority lines; knownHostsLinesAreReadAsOpenSshDoes: files hashed
//   by ssh-keygen -H, wildcards, negation, ports, markers.
// - frozenConnectionLosesTheHost: with a 5 s liveness bound, a TCP relay
//   (support/tcp_forwarder.py) stopped with SIGSTOP; the host is lost after
//   about 5.1 s. silentRanksAreNotLost: ranks silent for twice the bound are not.
// - refusedConnectionIsRetriedUntilAccepted: a host behind a ProxyCommand that
//   resets the connection until a file appears is tried again 1 and 2 s later
//   and the run completes; refusesBadLoginsAndUnreachableHosts: an unreachable
//   host is tried again, a login with an unknown key is not.
// - userTextNeverExecutes: a real run whose core path, folders, run name and
//   environment hold ;, $(...), backquotes, quotes, spaces and newlines
//   completes with them taken literally; no marker file appears.
#include "launcher_test_support.hpp"
#include "run_harness.hpp"

#include "launch/prepared_launch.hpp"
#include "launch/ssh/known_hosts.hpp"
#include "store/run_reader.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
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

    static launch::SshTarget& target(launch::RunConfig& c) { return std::get<launch::SshTarget>(c.target); }

    launch::RunConfig sshConfig(const QString& plan, const SshdFixture& f, int hosts)
    {
        return sshRunConfig(plan, f, hosts, tmp_.filePath(QStringLiteral("remote")));
    }

    QString plan(const QString& name, int nodes, int steps)
    {
        const QString path = tmp_.filePath(name);
        const QString err = writeTinyPlan(path, nodes, 2, steps);
        return err.isEmpty() ? path : QString();
    }

    // A fresh key pair by ssh-keygen; its public half as "TYPE BASE64".
    QByteArray newPublicKey(const QString& name, const QString& type = QStringLiteral("ed25519"))
    {
        const QString path = tmp_.filePath(name);
        QFile::remove(path);
        QFile::remove(path + QStringLiteral(".pub"));
        if (runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"),
                                                     QString(), QStringLiteral("-f"), path}) != 0)
            return {};
        QFile pub(path + QStringLiteral(".pub"));
        if (!pub.open(QIODevice::ReadOnly)) return {};
        const QList<QByteArray> parts = pub.readAll().trimmed().split(' ');
        return parts.value(0) + ' ' + parts.value(1);
    }
    // "[127.0.0.2]:PORT" as known_hosts names host 0, and its real key "TYPE BASE64".
    QByteArray hostPattern() const { return sshd_->hostKeyLine(0).section(QLatin1Char(' '), 0, 0).toUtf8(); }
    QByteArray hostKey() const { return sshd_->hostKeyLine(0).section(QLatin1Char(' '), 1).toUtf8(); }
    QByteArray hostKeyBlob() const { return QByteArray::fromBase64(hostKey().split(' ').value(1)); }

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
        expectNoProcessesOf(uid);
        QVERIFY(QFile::exists(tmp_.filePath(QStringLiteral("remote/")) + uid + QStringLiteral("/plan.json")));
        auto readerOpened = h.closeAndOpenReader();
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
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
        expectNoProcessesOf(uid);
        auto reader = h.closeAndOpenReader().valueOr(nullptr);
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
        target(c).ssh.knownHostsFile = known;
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
        const QByteArray impostor = newPublicKey(QStringLiteral("impostor_key"));
        QVERIFY(!impostor.isEmpty());
        const QByteArray line = hostPattern() + ' ' + impostor + '\n';
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_changed"));
        QCOMPARE(SshdFixture::writeFile(known, line), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12c.json"), 1, 5), *sshd_, 1);
        target(c).ssh.knownHostsFile = known;
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

    // No config file can weaken the host-key policy, and known_hosts markers
    // are honoured: each row would start the run on libssh's own checks.
    void hostKeyPolicyCannotBeWeakened_data()
    {
        QTest::addColumn<QByteArray>("configHead"); // put before the fixture's hosts
        QTest::addColumn<bool>("defaultLookup");    // the config as SSH_DIR/config, not --ssh-config
        QTest::addColumn<QByteArray>("knownHosts");
        QTest::addColumn<bool>("acceptNew");
        QTest::addColumn<QString>("expected");
        const QByteArray lax = "Host *\n  StrictHostKeyChecking no\n";
        const QByteArray noFiles = lax + "  UserKnownHostsFile /dev/null\n  GlobalKnownHostsFile /dev/null\n";
        const QByteArray impostor = newPublicKey(QStringLiteral("policy_impostor"));
        const QByteArray ecdsa = newPublicKey(QStringLiteral("policy_ecdsa"), QStringLiteral("ecdsa"));
        const QByteArray changed = hostPattern() + ' ' + impostor + '\n';
        const QByteArray otherType = hostPattern() + ' ' + ecdsa + '\n';
        const QByteArray trusted = hostPattern() + ' ' + hostKey() + '\n';
        const QString unknown = QStringLiteral("unknown host key"), isChanged = QStringLiteral("host key has CHANGED");
        QTest::newRow("unknown, StrictHostKeyChecking no") << lax << false << QByteArray() << false << unknown;
        QTest::newRow("changed, StrictHostKeyChecking no") << lax << false << changed << true << isChanged;
        QTest::newRow("other type, StrictHostKeyChecking no") << lax << false << otherType << true << QStringLiteral("another type");
        QTest::newRow("unknown, default config") << lax << true << QByteArray() << false << unknown;
        QTest::newRow("changed, default config") << lax << true << changed << true << isChanged;
        QTest::newRow("changed, known_hosts /dev/null") << noFiles << false << changed << true << isChanged;
        QTest::newRow("revoked") << QByteArray() << false << "@revoked * " + hostKey() + '\n' << true << QStringLiteral("REVOKED");
        QTest::newRow("revoked and listed") << lax << false << trusted + "@revoked " + hostPattern() + ' ' + hostKey() + '\n'
                                            << true << QStringLiteral("REVOKED");
        QTest::newRow("cert-authority") << QByteArray() << false << "@cert-authority " + hostPattern() + ' ' + impostor + '\n'
                                        << true << QStringLiteral("does not support certificate-authority host keys");
    }

    void hostKeyPolicyCannotBeWeakened()
    {
        QFETCH(QByteArray, configHead);
        QFETCH(bool, defaultLookup);
        QFETCH(QByteArray, knownHosts);
        QFETCH(bool, acceptNew);
        QFETCH(QString, expected);
        QFile fixtureConfig(sshd_->configFile);
        QVERIFY(fixtureConfig.open(QIODevice::ReadOnly));
        const QByteArray config = configHead + fixtureConfig.readAll();
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_policy"));
        QCOMPARE(SshdFixture::writeFile(known, knownHosts), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12k.json"), 1, 5), *sshd_, 1);
        target(c).ssh.knownHostsFile = known;
        if (defaultLookup) {
            target(c).ssh.configFile.clear();
            target(c).ssh.sshDir = tmp_.filePath(QStringLiteral("dot-ssh-lax"));
            QVERIFY(QDir().mkpath(target(c).ssh.sshDir));
            QCOMPARE(SshdFixture::writeFile(target(c).ssh.sshDir + QStringLiteral("/config"), config), QString());
        } else {
            target(c).ssh.configFile = tmp_.filePath(QStringLiteral("ssh_config_lax"));
            QCOMPARE(SshdFixture::writeFile(target(c).ssh.configFile, config), QString());
        }
        RunHarness h(tmp_.filePath(QStringLiteral("policy.sqlite")));
        QCOMPARE(h.prepare(c, acceptNew ? &acceptNew_ : &refuseNew_), QString());
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QVERIFY2(o.reason.contains(expected), qPrintable(o.reason));
        QVERIFY(h.pids.isEmpty());
        QFile k(known);
        QVERIFY(k.open(QIODevice::ReadOnly));
        QCOMPARE(k.readAll(), knownHosts); // nothing appended
        if (expected.contains(QLatin1String("certificate")))
            QVERIFY2(!o.reason.contains(QLatin1String("ssh-keygen")) && !o.reason.contains(QLatin1String("accept")),
                     qPrintable(o.reason)); // never advice to pin the raw key
    }

    // The known_hosts reader against files OpenSSH wrote or reads: hashed
    // names (ssh-keygen -H), wildcards, negation, ports, markers.
    void knownHostsLinesAreReadAsOpenSshDoes()
    {
        using V = launch::KnownHostsVerdict;
        const QString host = sshd_->address(0);
        const int port = sshd_->port(0);
        const QString file = tmp_.filePath(QStringLiteral("known_hosts_read"));
        auto verdict = [&](const QByteArray& text) {
            SshdFixture::writeFile(file, text);
            return launch::checkKnownHosts({file}, host, port, hostKeyBlob()).kind;
        };
        const QByteArray key = ' ' + hostKey() + '\n';
        QCOMPARE(launch::keyBlobType(hostKeyBlob()), QByteArray("ssh-ed25519"));
        QCOMPARE(verdict(hostPattern() + key), V::Trusted);
        QCOMPARE(verdict("# comment\n\n" + QStringLiteral("[%1]:%2").arg(host.toUpper()).arg(port).toUtf8() + key), V::Trusted);
        QCOMPARE(verdict(QStringLiteral("[127.0.0.?]:%1").arg(port).toUtf8() + key), V::Trusted);
        QCOMPARE(verdict("other," + hostPattern() + ",more" + key), V::Trusted);
        QCOMPARE(verdict("!" + hostPattern() + ",*" + key), V::Unknown);
        QCOMPARE(verdict(host.toUtf8() + key), V::Unknown); // port 22 only
        QCOMPARE(verdict("@cert-authority *" + key), V::CertAuthority);
        QCOMPARE(verdict("@revoked other.example" + key + hostPattern() + key), V::Revoked);
        QCOMPARE(verdict("@other-marker " + hostPattern() + key), V::Unknown);
        QCOMPARE(verdict(hostPattern() + " ssh-ed25519 not-base64!\n"), V::Unknown);
        // Hashed by OpenSSH itself.
        SshdFixture::writeFile(file, hostPattern() + key);
        QCOMPARE(runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-H"), QStringLiteral("-f"), file}), 0);
        QFile hashed(file);
        QVERIFY(hashed.open(QIODevice::ReadOnly));
        const QByteArray hashedText = hashed.readAll();
        QVERIFY2(hashedText.startsWith("|1|") && !hashedText.contains(host.toUtf8()), hashedText.constData());
        QCOMPARE(launch::checkKnownHosts({file}, host, port, hostKeyBlob()).kind, V::Trusted);
        QCOMPARE(launch::checkKnownHosts({file}, host, port + 1, hostKeyBlob()).kind, V::Unknown);
        // Missing files are empty; a FIFO is refused before it is read.
        QCOMPARE(launch::checkKnownHosts({tmp_.filePath(QStringLiteral("none"))}, host, port, hostKeyBlob()).kind, V::Unknown);
        const QString fifo = tmp_.filePath(QStringLiteral("known_hosts_fifo"));
        QCOMPARE(runProgram(QStringLiteral("mkfifo"), {fifo}), 0);
        QCOMPARE(launch::checkKnownHosts({fifo}, host, port, hostKeyBlob()).kind, V::Error);
    }

    // A path that silently stops carrying data (a relay stopped with SIGSTOP:
    // the socket stays open) loses the host within the liveness bound.
    void frozenConnectionLosesTheHost()
    {
        TcpForwarder relay;
        QCOMPARE(relay.start(QStringLiteral("127.0.0.1"), sshd_->address(0), sshd_->port(0)), QString());
        const QString config = tmp_.filePath(QStringLiteral("ssh_config_relay"));
        QCOMPARE(SshdFixture::writeFile(config, QStringLiteral("Host relayed\n  HostName 127.0.0.1\n  Port %1\n  IdentityFile %2\n")
                                                    .arg(relay.port())
                                                    .arg(sshd_->identityFile)
                                                    .toUtf8()),
                 QString());
        const QString known = tmp_.filePath(QStringLiteral("known_hosts_relay"));
        QCOMPARE(SshdFixture::writeFile(known, QStringLiteral("[127.0.0.1]:%1 ").arg(relay.port()).toUtf8() + hostKey() + '\n'), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12f.json"), 1, 1000000), *sshd_, 0);
        target(c).hosts = {launch::HostSpec{QStringLiteral("relayed"), 2}};
        target(c).ssh.configFile = config;
        target(c).ssh.knownHostsFile = known;
        target(c).ssh.keepaliveS = 1;
        target(c).ssh.livenessTimeoutS = 5;
        RunHarness h(tmp_.filePath(QStringLiteral("frozen.sqlite")));
        QCOMPARE(h.prepare(c, &refuseNew_), QString());
        h.start();
        QVERIFY2(h.waitFor([&] { return h.minStepOfAllRanks() >= 3; }, 120000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        QElapsedTimer sinceFreeze;
        sinceFreeze.start();
        relay.freeze();
        QVERIFY(h.waitFinished(60000));
        const qint64 tookMs = sinceFreeze.elapsed();
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("lost after %lld ms; reason: %s", tookMs, qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QVERIFY2(o.reason.contains(QLatin1String("nothing received")), qPrintable(o.reason));
        QCOMPARE(o.failingHost, QStringLiteral("relayed"));
        // The bound counts from the last byte received: at most one keepalive interval before the freeze.
        QVERIFY2(tookMs >= 5000 - 1000 - 500 && tookMs < 5000 + 3000, qPrintable(QStringLiteral("took %1 ms").arg(tookMs)));
        const QString uid = h.launch().uid;
        h.closeStore();
        // Once the relay is gone, sshd sees the connection close and the watchdogs stop the ranks.
        relay.kill();
        expectNoProcessesOf(uid, 15000);
    }

    // Keepalives are answered: ranks that print nothing for longer than the
    // liveness bound are not declared lost.
    void silentRanksAreNotLost()
    {
        const QString silent = tmp_.filePath(QStringLiteral("silent-core.sh"));
        QCOMPARE(SshdFixture::writeFile(silent, "#!/bin/sh\nsleep 6\n"), QString());
        QVERIFY(QFile::setPermissions(silent, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12s.json"), 1, 5), *sshd_, 1);
        target(c).remoteCore = silent;
        target(c).ssh.keepaliveS = 1;
        target(c).ssh.livenessTimeoutS = 3;
        RunHarness h(tmp_.filePath(QStringLiteral("silent.sqlite")));
        QCOMPARE(h.prepare(c, &refuseNew_), QString());
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QVERIFY2(!o.reason.contains(QLatin1String("nothing received")), qPrintable(o.reason));
        QCOMPARE(h.exits.size(), 2);
        for (const launch::RankExit& e : h.exits)
            QVERIFY2(e.kind == launch::RankExit::Exited && e.code == 0, qPrintable(e.detail));
        QVERIFY(h.clock.elapsed() > 5500);
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
            target(c).hosts = {launch::HostSpec{QString::fromLatin1(host), 2}};
            target(c).ssh.configFile = config;
            target(c).ssh.connectTries = 2; // a refused connection is tried again (after 1 s), a refused login is not
            RunHarness h(tmp_.filePath(QStringLiteral("bad.sqlite")));
            QCOMPARE(h.prepare(c, &refuseNew_), QString());
            h.start();
            QVERIFY(h.waitFinished(30000));
            const launch::RunOutcome& o = h.supervisor().outcome();
            QCOMPARE(o.status, store::RunStatus::Failed);
            const char* expected = std::strcmp(host, "stranger") == 0 ? "permission denied" : "cannot connect";
            QVERIFY2(o.reason.contains(QLatin1String(expected)), qPrintable(o.reason));
            QCOMPARE(o.reason.contains(QLatin1String("(tried 2 times)")), std::strcmp(host, "nowhere") == 0);
            QCOMPARE(o.failingHost, QString::fromLatin1(host));
        }
    }

    // A host whose connection is refused until a file appears (a
    // ProxyCommand that fails, as a bastion past MaxStartups would) is tried
    // again 1, 2 s later, and the run completes once it is let through.
    void refusedConnectionIsRetriedUntilAccepted()
    {
        const QString gate = tmp_.filePath(QStringLiteral("flaky-gate"));
        const QString proxy = sourceDir() + QStringLiteral("/tests/launcher/support/flaky_proxy.py");
        QFile base(sshd_->configFile);
        QVERIFY(base.open(QIODevice::ReadOnly));
        const QString config = tmp_.filePath(QStringLiteral("ssh_config_flaky"));
        const QString fixture = QString::fromUtf8(base.readAll());
        const QString user = QRegularExpression(QStringLiteral("User (\\S+)")).match(fixture).captured(1);
        const QString flaky = QStringLiteral("Host flaky\n  HostName %1\n  Port %2\n  User %3\n  IdentityFile %4\n"
                                             "  ProxyCommand python3 %5 %6 %h %p\n")
                                  .arg(sshd_->address(1))
                                  .arg(sshd_->port(1))
                                  .arg(user, sshd_->identityFile, proxy, gate);
        QCOMPARE(SshdFixture::writeFile(config, flaky.toUtf8()), QString());
        launch::RunConfig c = sshConfig(plan(QStringLiteral("p12flaky.json"), 1, 5), *sshd_, 0);
        target(c).hosts = {launch::HostSpec{QStringLiteral("flaky"), 2}};
        target(c).ssh.configFile = config;
        RunHarness h(tmp_.filePath(QStringLiteral("flaky.sqlite")));
        QCOMPARE(h.prepare(c, &refuseNew_), QString());
        h.start();
        QTRY_VERIFY2_WITH_TIMEOUT(h.progress.join(QLatin1Char('\n')).contains(QLatin1String("try 3 of 6 in 2 s")),
                                  qPrintable(h.progress.join(QLatin1Char('\n'))), 15000);
        QCOMPARE(SshdFixture::writeFile(gate, "open"), QString());
        QVERIFY2(h.waitFinished(120000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + QLatin1Char('\n') + h.progress.join(QLatin1Char('\n'))));
        QVERIFY2(h.progress.join(QLatin1Char('\n')).contains(QLatin1String("try 2 of 6 in 1 s")), qPrintable(h.progress.join(QLatin1Char('\n'))));
        QCOMPARE(h.progress.join(QLatin1Char('\n')).count(QLatin1String("; try ")), 2);
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
        target(c).remoteCore = core;
        target(c).remoteDir = base + QStringLiteral("/runs ") + payload;
        target(c).remoteWorkdir = workdir;
        c.extraEnv.insert(QStringLiteral("SB_USER_TEXT"), payload);
        RunHarness h(tmp_.filePath(QStringLiteral("inj.sqlite")));
        QCOMPARE(h.prepare(c, &refuseNew_), QString());
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + h.errors.join(QLatin1Char('\n'))));
        // The odd paths were used literally.
        QVERIFY(QFile::exists(target(c).remoteDir + QLatin1Char('/') + h.launch().uid + QStringLiteral("/plan.json")));
        QVERIFY2(QDir(markers).isEmpty(), "user text was executed");

        // Host aliases with shell syntax are refused before anything connects.
        for (const QString& host : {QStringLiteral("node-a;touch %1/m6").arg(markers), QStringLiteral("$(touch %1/m7)").arg(markers),
                                    QStringLiteral("`touch %1/m8`").arg(markers), QStringLiteral("node a"),
                                    QStringLiteral("node-a\ntouch %1/m9").arg(markers), QStringLiteral("'node-a'")}) {
            launch::RunConfig bad = sshConfig(plan(QStringLiteral("p12i.json"), 1, 5), *sshd_, 0);
            target(bad).hosts = {launch::HostSpec{host, 2}};
            const launch::PrepareResult p = launch::prepareLaunch(bad);
            QVERIFY2(!p.ok(), qPrintable(host));
            QVERIFY(launch::runConfigMessages(p.errors).join(QLatin1Char(' ')).contains(QLatin1String("not allowed")) ||
                    launch::runConfigMessages(p.errors).join(QLatin1Char(' ')).contains(QLatin1String("must not")));
        }
        QVERIFY2(QDir(markers).isEmpty(), "a host name was executed");
    }
};

QTEST_GUILESS_MAIN(LauncherSsh)
#include "tst_launcher_ssh.moc"
