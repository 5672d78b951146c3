// ProxyJump from --ssh-config (docs/launcher.md#ssh): jump hosts named only
// in a temporary config file, kept in a folder named "it's 100% jumps". Real
// sshd on loopback; the jumps only forward to the next hop of the chain
// (PermitOpen), so a chain taken in another order fails.
// Runs: one hop, a chain in its order, user@host:port hops, `ProxyJump none`,
// and a supervised run of the core through the chain (aRunThroughTheChain).
// Refused, in OpenSSH's words: an unknown and an unreachable jump
// (aWrongJumpIsNamed); a jump whose key is missing from known_hosts, also
// under StrictHostKeyChecking no (theJumpsHostKeyMustBeKnown); a hop with
// $(...) in its name, before anything runs: no marker file appears
// (shellMetacharactersInAHopAreRefused).
#include "launcher_test_support.hpp"

#include "launch/ssh/proxy_jump.hpp"
#include "launch/ssh/ssh_connection.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::test;

namespace {

constexpr int kJump1 = 0, kJump2 = 1, kTarget = 2;

QString hostBlock(const SshdFixture& s, const QString& alias, int i, const QString& extra = {})
{
    return QStringLiteral("Host %1\n  HostName %2\n  Port %3\n  User root\n  IdentityFile %4\n%5")
        .arg(alias, s.address(i))
        .arg(s.port(i))
        .arg(s.identityFile, extra);
}

} // namespace

class LauncherJump : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::unique_ptr<SshdFixture> sshd_;
    QString config_;  // in a folder whose name needs quoting: "it's 100% jumps"
    QString marker_;  // created if a hop reached a shell
    QString evilConfig_;

    launch::SshOptions options(const QString& knownHosts = {}) const
    {
        launch::SshOptions o;
        o.configFile = config_;
        o.knownHostsFile = knownHosts.isEmpty() ? sshd_->knownHostsFile : knownHosts;
        o.sshDir = sshd_->sshDir;
        o.connectTimeoutS = 10;
        return o;
    }

    // Connects to `host` and runs `echo ok`; "" or the error.
    QString connectAndRun(const QString& host, const launch::SshOptions& o)
    {
        launch::SshConnection conn;
        launch::FixedHostKeyPolicy reject(launch::HostKeyDecision::Reject);
        launch::HostSpec spec;
        spec.name = host;
        if (const Status e = conn.open(spec, o, reject, nullptr); !e) return qtMessage(e);
        QByteArray out;
        int status = -1;
        if (const Status e = conn.run("echo ok", &out, &status, 20000); !e) return qtMessage(e);
        return out.trimmed() == "ok" && status == 0 ? QString() : QStringLiteral("unexpected output: ") + QString::fromUtf8(out);
    }

    void expectRuns(const QString& host)
    {
        const QString e = connectAndRun(host, options());
        QVERIFY2(e.isEmpty(), qPrintable(e));
    }

private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        sshd_ = std::make_unique<SshdFixture>(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd_->dir);
        const QString j2 = QStringLiteral("127.0.3.2"), target = QStringLiteral("127.0.3.3");
        // jump1 forwards to jump2 and the target, jump2 to the target only; the target to nothing.
        QCOMPARE(sshd_->start({QStringLiteral("127.0.3.1"), j2, target},
                              {QStringLiteral("PermitOpen %1:* %2:*\n").arg(j2, target).toUtf8(),
                               QStringLiteral("PermitOpen %1:*\n").arg(target).toUtf8(), "AllowTcpForwarding no\n"}),
                 QString());
        const QString dir = tmp_.filePath(QStringLiteral("it's 100% jumps"));
        QVERIFY(QDir().mkpath(dir));
        config_ = dir + QStringLiteral("/ssh config");
        marker_ = tmp_.filePath(QStringLiteral("marker"));
        const SshdFixture& s = *sshd_;
        const QString text =
            hostBlock(s, QStringLiteral("jump1"), kJump1) + hostBlock(s, QStringLiteral("jump2"), kJump2) +
            hostBlock(s, QStringLiteral("lax-jump1"), kJump1, QStringLiteral("  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n")) +
            hostBlock(s, QStringLiteral("one-hop"), kTarget, QStringLiteral("  ProxyJump jump1\n")) +
            hostBlock(s, QStringLiteral("chain"), kTarget, QStringLiteral("  ProxyJump jump1,jump2\n")) +
            hostBlock(s, QStringLiteral("addresses"), kTarget,
                      QStringLiteral("  ProxyJump root@%1:%2,ssh://root@%3:%4\n")
                          .arg(s.address(kJump1)).arg(s.port(kJump1)).arg(s.address(kJump2)).arg(s.port(kJump2))) +
            hostBlock(s, QStringLiteral("lax-hop"), kTarget, QStringLiteral("  ProxyJump lax-jump1\n")) +
            hostBlock(s, QStringLiteral("dead-jump"), kTarget, QStringLiteral("  ProxyJump root@127.0.3.9:1\n")) +
            hostBlock(s, QStringLiteral("direct"), kJump1, QStringLiteral("  ProxyJump none\n")) +
            hostBlock(s, QStringLiteral("unknown-jump"), kTarget, QStringLiteral("  ProxyJump no-such-jump\n"));
        QCOMPARE(SshdFixture::writeFile(config_, text.toUtf8()), QString());
        // OpenSSH refuses a whole file with such a line: it has one of its own.
        evilConfig_ = dir + QStringLiteral("/evil config");
        QCOMPARE(SshdFixture::writeFile(evilConfig_, (hostBlock(s, QStringLiteral("jump1"), kJump1) +
                                                      hostBlock(s, QStringLiteral("evil"), kTarget,
                                                                QStringLiteral("  ProxyJump jump1,j2$(touch${IFS}%1)\n").arg(marker_)))
                                                         .toUtf8()),
                 QString());
    }

    // The pure parts: libssh's command read back, hops checked.
    void hopsAreReadAndChecked()
    {
        QString spec;
        QVERIFY(launch::proxyJumpFromLibsshCommand(QStringLiteral("ssh -l alice -p 2222 -J bob@[::1]:23,j2 -W '[%h]:%p' j1"), &spec));
        QCOMPARE(spec, QStringLiteral("alice@j1:2222,bob@[::1]:23,j2"));
        QVERIFY(launch::proxyJumpFromLibsshCommand(QStringLiteral("ssh -p 23 -W '[%h]:%p' ::1"), &spec));
        QCOMPARE(spec, QStringLiteral("[::1]:23"));
        QVERIFY(!launch::proxyJumpFromLibsshCommand(QStringLiteral("nc %h %p"), &spec));
        const Result<QList<launch::JumpHop>> parsed = launch::parseProxyJump(QStringLiteral("alice@j1:2222,ssh://bob@[::1]:23,j2"));
        QVERIFY2(parsed, parsed.error().c_str());
        const QList<launch::JumpHop>& hops = parsed.value();
        QCOMPARE(hops.size(), 3);
        QCOMPARE(hops[0].user, QStringLiteral("alice"));
        QCOMPARE(hops[0].port, 2222);
        QCOMPARE(hops[1].host, QStringLiteral("::1"));
        QCOMPARE(hops[2].port, 0);
        for (const char* bad : {"j1;touch x", "j1,j2$(id)", "u`id`@h", "h:0", "h:99999", "h:", "[::1", "", "a,,b",
                                "-oProxyCommand=x", "a,b,c,d,e,f,g,h,i"}) {
            const QString e = qtMessage(launch::parseProxyJump(QString::fromLatin1(bad)));
            QVERIFY2(e.startsWith(QLatin1String("ProxyJump \"")), bad);
        }
        QVERIFY(qtMessage(launch::parseProxyJump(QStringLiteral("j1,j2$(id)"))).contains(QLatin1String("hop \"j2$(id)\"")));
    }

    // Every hop's ssh gets the config, the known_hosts and strict checking;
    // paths are quoted and their % doubled; what cannot be passed is refused.
    void theJumpCommandQuotesEverything()
    {
        launch::JumpOptions o;
        o.ssh = QStringLiteral("/usr/bin/ssh");
        o.configFile = QStringLiteral("/a dir/it's 100%");
        o.knownHostsFile = QStringLiteral("/k h/known");
        const Result<QList<launch::JumpHop>> hops = launch::parseProxyJump(QStringLiteral("j1,u@j2:2200"));
        QVERIFY2(hops, hops.error().c_str());
        const Result<QByteArray> made = launch::jumpProxyCommand(hops.value(), o);
        QVERIFY2(made, made.error().c_str());
        QByteArray cmd = made.value();
        QVERIFY2(cmd.startsWith("exec env SHELL=/bin/sh '/usr/bin/ssh' '-F' '/a dir/it'\\''s 100%%'"), cmd.constData());
        QVERIFY2(cmd.contains("'StrictHostKeyChecking=yes'") && cmd.contains("'BatchMode=yes'"), cmd.constData());
        QVERIFY2(cmd.contains("'UserKnownHostsFile=\"/k h/known\"'"), cmd.constData());
        QVERIFY2(cmd.endsWith("'-l' 'u' '-p' '2200' -W '[%h]:%p' 'j2'"), cmd.constData());
        QVERIFY2(cmd.contains("-W '\\''[%%h]:%%p'\\'' '\\''j1'\\''"), cmd.constData()); // the first hop, one level down
        o.configFile = QStringLiteral("/a\nb");
        QVERIFY(qtMessage(launch::jumpProxyCommand(hops.value(), o)).contains(QLatin1String("'\\n'"))); // the newline, escaped and quoted
    }

    void oneHopFromTheConfigFile() { expectRuns(QStringLiteral("one-hop")); }

    // jump1 forwards only to jump2 and jump2 only to the target: only the
    // order of the config works (libssh 0.10's own command took another).
    void aChainInItsOrder() { expectRuns(QStringLiteral("chain")); }

    // Hops that are not aliases of the file: the key comes from --identity, which every hop's ssh gets.
    void hopsAsUserHostPort()
    {
        launch::SshOptions o = options();
        QString e = connectAndRun(QStringLiteral("addresses"), o);
        QVERIFY2(e.contains(QLatin1String("Permission denied (publickey)")), qPrintable(e));
        o.identityFiles = {sshd_->identityFile};
        e = connectAndRun(QStringLiteral("addresses"), o);
        QVERIFY2(e.isEmpty(), qPrintable(e));
    }

    // `ProxyJump none`: no jump at all.
    void proxyJumpNoneConnectsDirectly() { expectRuns(QStringLiteral("direct")); }

    void aWrongJumpIsNamed()
    {
        QString e = connectAndRun(QStringLiteral("unknown-jump"), options());
        QVERIFY2(e.contains(QLatin1String("through the jump host(s) no-such-jump")) &&
                     e.contains(QLatin1String("Could not resolve hostname no-such-jump")),
                 qPrintable(e));
        e = connectAndRun(QStringLiteral("dead-jump"), options());
        QVERIFY2(e.contains(QLatin1String("root@127.0.3.9:1")) && e.contains(QLatin1String("Connection refused")), qPrintable(e));
    }

    // The jump's host key is checked against the same known_hosts, strictly,
    // even where the config says StrictHostKeyChecking no.
    void theJumpsHostKeyMustBeKnown()
    {
        const QString partial = tmp_.filePath(QStringLiteral("known_hosts_without_jump1"));
        QCOMPARE(SshdFixture::writeFile(partial, (sshd_->hostKeyLine(kJump2) + QLatin1Char('\n') + sshd_->hostKeyLine(kTarget) +
                                                  QLatin1Char('\n')).toUtf8()),
                 QString());
        for (const char* host : {"one-hop", "lax-hop"}) {
            const QString e = connectAndRun(QString::fromLatin1(host), options(partial));
            QVERIFY2(e.contains(QLatin1String("Host key verification failed")), qPrintable(e));
        }
        expectRuns(QStringLiteral("lax-hop"));
    }

    void shellMetacharactersInAHopAreRefused()
    {
        launch::SshOptions o = options();
        o.configFile = evilConfig_;
        const QString e = connectAndRun(QStringLiteral("evil"), o);
        QVERIFY2(e.contains(QLatin1String("ProxyJump \"jump1,j2$(touch")) && e.contains(QLatin1String("'$'")), qPrintable(e));
        QTest::qWait(500);
        QVERIFY(!QFile::exists(marker_));
    }

    // A supervised run of the real core on the target, through the chain.
    void aRunThroughTheChain()
    {
        const QString plan = tmp_.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 5), QString());
        const CliResult r = runCli({QStringLiteral("run"), plan, QStringLiteral("--db"), tmp_.filePath(QStringLiteral("runs.sqlite")),
                                    QStringLiteral("--host"), QStringLiteral("chain:2"), QStringLiteral("--ssh-config"), config_,
                                    QStringLiteral("--known-hosts"), sshd_->knownHostsFile, QStringLiteral("--ssh-dir"), sshd_->sshDir,
                                    QStringLiteral("--remote-core"), corePath(), QStringLiteral("--remote-dir"),
                                    tmp_.filePath(QStringLiteral("remote")), QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")},
                                   180000);
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("completed")), qPrintable(describe(r)));
    }
};

QTEST_MAIN(LauncherJump)
#include "tst_launcher_jump.moc"
