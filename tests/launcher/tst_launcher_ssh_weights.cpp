// --init-from over SSH, against a real OpenSSH server on loopback: each
// host's own shardbench-core checks the initial weights (shardbench-core
// --check-init-from) once the plan is copied, before any rank starts; a
// refusal fails the launch naming the host, and weights that fit start
// every rank. (Detached SSH runs: launcher_detach, sshTwoHostsFromTheHeadNode.)
#include "launcher_test_support.hpp"
#include "run_harness.hpp"

#include "launch/ssh/known_hosts.hpp"
#include "store/run_reader.hpp"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::test;

class LauncherSshWeights : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(corePath()), qPrintable(corePath() + QStringLiteral(" is missing")));
        qunsetenv("SSH_AUTH_SOCK"); // only the keys the fixture gives
        QVERIFY(tmp_.isValid());
    }

    // --init-from over SSH: each host's core checks the weights there, as its
    // ranks would read them (relative to the remote working folder), before
    // any rank starts; the weights that fit then start every rank.
    void initialWeightsAreCheckedOnEachHost()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.31"), QStringLiteral("127.0.0.32")}), QString());
        launch::FixedHostKeyPolicy refuseNew{launch::HostKeyDecision::Reject};
        const QString p = tmp_.filePath(QStringLiteral("p22w.json"));
        QCOMPARE(writeTinyPlan(p, 2, 2, 3), QString());
        const QString work = tmp_.filePath(QStringLiteral("remote-work"));
        QVERIFY(QDir().mkpath(work));
        QProcess core;
        core.start(corePath(), {QStringLiteral("--plan"), p, QStringLiteral("--reference"), QStringLiteral("--export-final"),
                                work + QStringLiteral("/good.safetensors")});
        QVERIFY(core.waitForFinished(60000) && core.exitCode() == 0);
        QCOMPARE(SshdFixture::writeFile(work + QStringLiteral("/bad.safetensors"), "not a safetensors file"), QString());
        struct Case {
            const char* initFrom;
            const char* expected;
        };
        for (const Case& c : {Case{"missing.safetensors", "missing.safetensors: no such file"},
                              Case{"bad.safetensors", "does not fit the file"}}) {
            launch::RunConfig config = sshRunConfig(p, sshd, 2, tmp_.filePath(QStringLiteral("remote")));
            std::get<launch::SshTarget>(config.target).remoteWorkdir = work;
            config.initFrom = QString::fromLatin1(c.initFrom);
            RunHarness h(tmp_.filePath(QStringLiteral("weights.sqlite")));
            QCOMPARE(h.prepare(config, &refuseNew), QString());
            h.start();
            QVERIFY(h.waitFinished(60000));
            const launch::RunOutcome& o = h.supervisor().outcome();
            QCOMPARE(o.status, store::RunStatus::Failed);
            QVERIFY2(o.reason.contains(QStringLiteral("the initial weights %1 cannot start this plan (checked there").arg(config.initFrom)) &&
                         o.reason.contains(QLatin1String(c.expected)),
                     qPrintable(o.reason));
            QVERIFY2(o.failingHost == QLatin1String("node-a") || o.failingHost == QLatin1String("node-b"), qPrintable(o.failingHost));
            const qint64 id = h.runId();
            auto readerOpened = h.closeAndOpenReader();
            QVERIFY2(readerOpened, readerOpened.error().c_str());
            auto reader = std::move(readerOpened).value();
            QCOMPARE(reader->events(id, QStringLiteral("hello")).size(), 0); // no rank started
        }
        launch::RunConfig config = sshRunConfig(p, sshd, 2, tmp_.filePath(QStringLiteral("remote")));
        std::get<launch::SshTarget>(config.target).remoteWorkdir = work;
        config.initFrom = QStringLiteral("good.safetensors");
        RunHarness h(tmp_.filePath(QStringLiteral("weights.sqlite")));
        QCOMPARE(h.prepare(config, &refuseNew), QString());
        h.start();
        QVERIFY(h.waitFinished(120000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + QLatin1Char('\n') + h.progress.join(QLatin1Char('\n'))));
        QCOMPARE(o.stepsDone, 3);
    }
};

QTEST_GUILESS_MAIN(LauncherSshWeights)
#include "tst_launcher_ssh_weights.moc"
