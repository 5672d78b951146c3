// launcher/launch/run_alerts: a run's end, its failure, a stall measured against its
// own pace, and a loss that is not finite, each said once; nothing said of a
// run no longer watched.
#include "launch/run_alerts.hpp"

#include <QSignalSpy>
#include <QTest>

#include <limits>

using namespace sb;
using sb::launch::RunAlert;
using sb::launch::RunAlerts;

namespace {

protocol::StepMetrics step(int rank, int n, double loss = 2.0)
{
    protocol::StepMetrics m;
    m.rank = rank;
    m.step = n;
    m.loss = loss;
    return m;
}

} // namespace

class TestRunAlerts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aFinishedOrFailedRunIsSaidOnce()
    {
        RunAlerts alerts;
        QSignalSpy said(&alerts, &RunAlerts::alert);
        alerts.watch(7, QStringLiteral("sweep"));
        alerts.log(step(0, 1));
        alerts.setStatus(store::RunStatus::Running, {});
        QCOMPARE(said.size(), 0);
        alerts.setStatus(store::RunStatus::Failed, QStringLiteral("rank 1 exited with code 3"));
        alerts.setStatus(store::RunStatus::Failed, QStringLiteral("again"));
        QCOMPARE(said.size(), 1);
        const RunAlert a = said.takeFirst().value(0).value<RunAlert>();
        QCOMPARE(a.kind, RunAlert::Failed);
        QCOMPARE(a.runId, 7);
        QCOMPARE(a.runName, QStringLiteral("sweep"));
        QCOMPARE(a.reason, QStringLiteral("rank 1 exited with code 3"));
        QCOMPARE(a.step, 1);
        QCOMPARE(launch::alertName(a.kind), QStringLiteral("failed"));

        alerts.watch(8, {});
        alerts.setStatus(store::RunStatus::Completed, {});
        QCOMPARE(said.takeFirst().value(0).value<RunAlert>().kind, RunAlert::Finished);
        alerts.watch(9, {});
        alerts.forget();
        alerts.setStatus(store::RunStatus::Cancelled, {});
        QCOMPARE(said.size(), 0);
    }

    void aLossThatIsNotFiniteIsSaidOnce()
    {
        RunAlerts alerts;
        QSignalSpy said(&alerts, &RunAlerts::alert);
        alerts.watch(1, {});
        alerts.log(step(0, 1));
        alerts.log(step(1, 2, std::numeric_limits<double>::quiet_NaN())); // any rank's
        alerts.log(step(0, 3, std::numeric_limits<double>::infinity()));
        QCOMPARE(said.size(), 1);
        const RunAlert a = said.takeFirst().value(0).value<RunAlert>();
        QCOMPARE(a.kind, RunAlert::NonFiniteLoss);
        QCOMPARE(a.step, 2);
        QVERIFY(std::isnan(a.loss));
    }

    // Steps every ~20 ms, then silence: the stall is said once the silence is
    // both 10 times the pace and past the minimum, and again only after
    // steps came back. A run before its second step has no pace yet.
    void aStallIsMeasuredAgainstTheRunsOwnPace()
    {
        RunAlerts alerts;
        RunAlerts::Options o;
        o.stallFactor = 10;
        o.minStallMs = 300;
        o.checkEveryMs = 20;
        alerts.setOptions(o);
        QSignalSpy said(&alerts, &RunAlerts::alert);
        alerts.watch(3, {});
        alerts.log(step(0, 1));
        QTest::qWait(500);
        QCOMPARE(said.size(), 0); // one step: no pace
        for (int n = 2; n <= 6; ++n) {
            QTest::qWait(20);
            alerts.log(step(0, n));
            alerts.log(step(1, n)); // other ranks do not set the pace
        }
        QTest::qWait(150);
        QCOMPARE(said.size(), 0); // under the minimum
        QVERIFY(said.wait(2000));
        RunAlert a = said.takeFirst().value(0).value<RunAlert>();
        QCOMPARE(a.kind, RunAlert::Stalled);
        QCOMPARE(a.step, 6);
        QVERIFY(a.silentMs >= 300);
        QTest::qWait(200);
        QCOMPARE(said.size(), 0); // once
        alerts.log(step(0, 7));
        QVERIFY(said.wait(2000)); // silent again
        QCOMPARE(said.takeFirst().value(0).value<RunAlert>().step, 7);
        alerts.setStatus(store::RunStatus::Completed, {});
        said.clear();
        QTest::qWait(500);
        QCOMPARE(said.size(), 0); // an ended run does not stall
    }
};

QTEST_GUILESS_MAIN(TestRunAlerts)
#include "tst_launcher_run_alerts.moc"
