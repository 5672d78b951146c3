// Launch at scale, the connection side of the supervised SSH backend
// (launch/ssh/connect_gate.hpp, docs/launcher.md#ssh): at most kMaxConnecting
// connections in progress, a connection that fails before the login tried
// again after a back-off, a refused login or host key not tried again, and
// Stop ending the waits at once. Fake connections with millisecond back-offs;
// libssh only to classify a refused connection.
// Checked here: a host refused three times then accepted is tried four
// times, the waits doubling; a refused login is tried once; 32 hosts are never
// more than 8 at once; Stop ends a one-minute back-off and a wait for a slot
// at once; libssh's refused TCP connection is classified as worth another try.
// With real connections elsewhere: tst_launcher_ssh
// (refusedConnectionIsRetriedUntilAccepted, refusesBadLoginsAndUnreachableHosts),
// tst_launcher_cli (--connect-tries 2 ends "(tried 2 times)") and
// tst_launcher_bastion (supervisedRunBehindTheBastion).
#include "launcher_test_support.hpp"

#include "launch/ssh/connect_gate.hpp"
#include "launch/ssh/ssh_connection.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace sb::launch;
using sb::qtMessage;
using sb::limits::kMaxConnecting;

namespace {

ConnectRetryPolicy quickPolicy()
{
    ConnectRetryPolicy p;
    p.firstDelayMs = 10;
    p.maxDelayMs = 1000;
    return p;
}

} // namespace

class LauncherConnectRetry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void backOffDoublesAsTheSupervisors()
    {
        const ConnectRetryPolicy p;
        QCOMPARE(p.tries, 6);
        QCOMPARE(kMaxConnecting, 8);
        QList<int> delays;
        for (int failed = 1; failed < p.tries; ++failed) delays << p.delayAfter(failed);
        QCOMPARE(delays, (QList<int>{1000, 2000, 4000, 8000, 16000}));
    }

    void refusedThreeTimesThenAcceptedIsRetried()
    {
        ConnectGate gate;
        int calls = 0;
        QList<int> retries, delays;
        const ConnectResult r = connectWithRetries(
            gate, quickPolicy(),
            [&] {
                return ++calls <= 3 ? ConnectAttempt{QStringLiteral("host: cannot connect: Connection refused"), true}
                                    : ConnectAttempt{};
            },
            [&](const QString& error, int nextTry, int delayMs) {
                QCOMPARE(error, QStringLiteral("host: cannot connect: Connection refused"));
                retries << nextTry;
                delays << delayMs;
            });
        QCOMPARE(r.error, QString());
        QVERIFY(!r.cancelled);
        QCOMPARE(calls, 4);
        QCOMPARE(r.tries, 4);
        QCOMPARE(retries, (QList<int>{2, 3, 4}));
        QCOMPARE(delays, (QList<int>{10, 20, 40}));
    }

    void loginFailureIsNotRetried()
    {
        ConnectGate gate;
        int calls = 0, retried = 0;
        const QString denied = QStringLiteral("host: permission denied for user \"u\": no key was accepted");
        const ConnectResult r = connectWithRetries(
            gate, quickPolicy(), [&] { ++calls; return ConnectAttempt{denied, false}; },
            [&](const QString&, int, int) { ++retried; });
        QCOMPARE(calls, 1);
        QCOMPARE(retried, 0);
        QCOMPARE(r.error, denied); // today's message, unchanged
    }

    void triesRunOut()
    {
        ConnectGate gate;
        int calls = 0;
        const ConnectResult r = connectWithRetries(
            gate, quickPolicy(), [&] { ++calls; return ConnectAttempt{QStringLiteral("reset"), true}; }, {});
        QCOMPARE(calls, 6);
        QCOMPARE(r.error, QStringLiteral("reset (tried 6 times)"));
    }

    // 32 hosts at once: never more than 8 in progress, and 8 reached.
    void atMostEightConnectAtOnce()
    {
        ConnectGate gate(kMaxConnecting);
        std::atomic<int> now{0}, peak{0}, done{0};
        std::vector<std::thread> hosts;
        for (int h = 0; h < 32; ++h)
            hosts.emplace_back([&, h] {
                int calls = 0;
                const ConnectResult r = connectWithRetries(
                    gate, quickPolicy(),
                    [&] {
                        const int n = ++now;
                        for (int p = peak; n > p && !peak.compare_exchange_weak(p, n);) {}
                        std::this_thread::sleep_for(std::chrono::milliseconds(20));
                        --now;
                        return ++calls == 1 && h % 4 == 0 ? ConnectAttempt{QStringLiteral("refused"), true} : ConnectAttempt{};
                    },
                    {});
                if (r.error.isEmpty()) ++done;
            });
        for (auto& t : hosts) t.join();
        QCOMPARE(done.load(), 32);
        QCOMPARE(peak.load(), kMaxConnecting);
    }

    // Stop during a back-off of a minute: the wait ends at once.
    void cancelEndsTheBackOffAtOnce()
    {
        ConnectGate gate;
        ConnectRetryPolicy slow;
        slow.firstDelayMs = 60000;
        std::atomic<bool> waiting{false};
        ConnectResult r;
        std::thread host([&] {
            r = connectWithRetries(
                gate, slow, [] { return ConnectAttempt{QStringLiteral("refused"), true}; },
                [&](const QString&, int, int) { waiting = true; });
        });
        QTRY_VERIFY(waiting.load());
        QElapsedTimer clock;
        clock.start();
        gate.cancel();
        host.join();
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(r.cancelled);
        QCOMPARE(r.tries, 1);
    }

    // Stop while hosts wait for a slot: they give up at once, untried.
    void cancelEndsTheWaitForASlot()
    {
        ConnectGate gate(1);
        QVERIFY(gate.acquire());
        std::atomic<int> calls{0};
        ConnectResult r;
        std::thread host([&] { r = connectWithRetries(gate, quickPolicy(), [&] { ++calls; return ConnectAttempt{}; }, {}); });
        QTest::qWait(100);
        gate.cancel();
        host.join();
        QVERIFY(r.cancelled);
        QCOMPARE(calls.load(), 0);
        QVERIFY(!gate.acquire());
    }

    // libssh's view: a refused TCP connection is a connection failure (tried
    // again); a host key or login refusal is classified as such by open().
    void refusedConnectionIsClassifiedRetryable()
    {
        QTemporaryDir tmp;
        const QString config = tmp.filePath(QStringLiteral("config"));
        QCOMPARE(sb::test::SshdFixture::writeFile(config, "Host nowhere\n  HostName 127.0.0.1\n  Port 1\n"), QString());
        SshOptions o;
        o.configFile = config;
        o.sshDir = tmp.path();
        o.connectTimeoutS = 5;
        FixedHostKeyPolicy reject(HostKeyDecision::Reject);
        SshConnection conn;
        QCOMPARE(conn.openFailure(), SshConnection::OpenFailure::None);
        const QString error = qtMessage(conn.open(HostSpec{QStringLiteral("nowhere"), 1}, o, reject, nullptr));
        QVERIFY2(error.contains(QLatin1String("cannot connect")), qPrintable(error));
        QCOMPARE(conn.openFailure(), SshConnection::OpenFailure::Connection);
        // A name refused before any connection is not worth another try.
        QVERIFY(!conn.open(HostSpec{QStringLiteral("bad$(name)"), 1}, o, reject, nullptr).ok());
        QCOMPARE(conn.openFailure(), SshConnection::OpenFailure::Setup);
    }
};

QTEST_MAIN(LauncherConnectRetry)
#include "tst_launcher_connect_retry.moc"
