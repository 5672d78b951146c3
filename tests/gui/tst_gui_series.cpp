// Long series in the workbench: the loss smoothing reproduces TensorBoard's
// debiased EMA, a restarted attempt replaces its steps, and a chart of a
// million points draws. The series table itself: tests/app/tst_app_series.cpp.
#include "gui_test_support.hpp"

#include "models/ema_smoothing.hpp"
#include "models/live_run_model.hpp"
#include "views/series_chart.hpp"

#include <QRandomGenerator>
#include <QValueAxis>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace sb::gui;
using sb::app::SeriesTable;

class TestSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void smoothingIsTensorBoards();
    void restartedAttemptReplacesSteps();
    void chartOfAMillionPoints();
    void ticksAreRoundNumbers();
};

void TestSeries::smoothingIsTensorBoards()
{
    // TensorBoard's scalar smoothing (tf_smoothing.ts), written out independently.
    QRandomGenerator rng(11);
    std::vector<double> v;
    for (int i = 0; i < 500; ++i) v.push_back(5.0 - i * 0.005 + rng.generateDouble() * 0.3);
    v[42] = std::nan("");
    for (double weight : {0.0, 0.6, 0.9, 0.99}) {
        double last = 0;
        int n = 0;
        const std::vector<double> ours = emaSmooth(v, weight);
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!std::isfinite(v[i])) {
                QVERIFY(std::isnan(ours[i]));
                continue;
            }
            last = last * weight + (1 - weight) * v[i];
            ++n;
            const double expected = last / (1 - std::pow(weight, n));
            QVERIFY2(std::abs(ours[i] - expected) < 1e-9 * std::max(1.0, std::abs(expected)),
                     qPrintable(QStringLiteral("w %1 i %2: %3 vs %4").arg(weight).arg(i).arg(ours[i]).arg(expected)));
        }
    }
    // A constant series stays constant.
    for (double s : emaSmooth(std::vector<double>(50, 3.25), 0.9)) QCOMPARE(s, 3.25);
    // The live model smooths as it goes and after the slider moves alike.
    LiveRunModel live;
    live.reset(1, 500, {});
    live.setSmoothing(0.9);
    for (std::size_t i = 0; i < v.size(); ++i) {
        protocol::StepMetrics m;
        m.rank = 0;
        m.step = static_cast<int>(i) + 1;
        m.loss = v[i];
        m.t = 1000 + i;
        live.log(m);
    }
    const std::vector<double> streamed = live.table().column(LiveRunModel::LossSmoothed);
    live.setSmoothing(0.5);
    live.setSmoothing(0.9);
    const std::vector<double>& recomputed = live.table().column(LiveRunModel::LossSmoothed);
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!std::isnan(v[i])) QCOMPARE(streamed[i], recomputed[i]);
}

void TestSeries::restartedAttemptReplacesSteps()
{
    LiveRunModel live;
    live.reset(2, 30, {100, 100});
    auto step = [&](int rank, int s, double loss, double t) {
        protocol::StepMetrics m;
        m.rank = rank;
        m.step = s;
        m.loss = loss;
        m.t = t;
        m.memPeak = 10 * s;
        m.memCurrent = 5;
        live.log(m);
    };
    for (int s = 1; s <= 12; ++s) step(0, s, 10.0 - s, 100 + s);
    // The second attempt resumes from the checkpoint of step 10.
    for (int s = 11; s <= 15; ++s) step(0, s, 1.0, 200 + s);
    QCOMPARE(live.table().size(), 15);
    QCOMPARE(live.table().value(LiveRunModel::Loss, 10), 1.0);
    QCOMPARE(live.lastStep(), 15);
    step(1, 3, 0, 0);
    QCOMPARE(live.ranks()[1].peak, 30);
    QCOMPARE(live.ranks()[1].predicted, 100);
    // ETA from the recent pace: here one step per second, 25 steps left.
    LiveRunModel paced;
    paced.reset(1, 30, {});
    QVERIFY(std::isnan(paced.etaSeconds()));
    for (int s = 1; s <= 5; ++s) {
        protocol::StepMetrics m;
        m.rank = 0;
        m.step = s;
        m.loss = 1;
        m.t = 1000 + s;
        paced.log(m);
    }
    QCOMPARE(paced.etaSeconds(), 25.0);
}

void TestSeries::chartOfAMillionPoints()
{
    SeriesTable t(1);
    const int n = 1000000;
    t.reserve(n);
    for (int i = 1; i <= n; ++i) t.append(i, {std::sin(i * 1e-3) + (i == 500001 ? 10 : 0)});
    SeriesChart chart;
    chart.resize(900, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const int id = chart.addLine(&t, 0, QPen(Qt::blue));
    chart.refreshNow();
    QVERIFY(chart.drawnPoints(id) > 100);
    QVERIFY(chart.drawnPoints(id) <= 4 * 900 + 2);
    QCOMPARE(chart.xMin(), 1.0);
    QCOMPARE(chart.xMax(), static_cast<double>(n));
    // Zoomed in, only the visible part is decimated, at full resolution.
    chart.setXRange(499990, 500010);
    chart.refreshNow();
    QVERIFY(!chart.isFollowing());
    QCOMPARE(chart.drawnPoints(id), 23);
    chart.follow();
    chart.refreshNow();
    QVERIFY(chart.isFollowing());
    QVERIFY(chart.csv().startsWith("series,x,value\n"));
}

// Ticks at round numbers whatever the range's ends: a 251-step run reads 0,
// 50, 100, ... (it read 1, 63.5, 126, 188.5, 251), and the loss axis likewise.
void TestSeries::ticksAreRoundNumbers()
{
    QCOMPARE(roundTickStep(250), 50.0);
    QCOMPARE(roundTickStep(250, 12), 50.0); // 20.8 a step: the next of 1, 2, 5 x 10^k
    QCOMPARE(roundTickStep(0.37), 0.1);
    QCOMPARE(roundTickStep(1e6), 200000.0);
    QCOMPARE(roundTickStep(0), 1.0);
    SeriesTable t(1);
    for (int i = 1; i <= 251; ++i) t.append(i, {6.0 - i * 0.01});
    SeriesChart chart;
    chart.resize(900, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addLine(&t, 0, QPen(Qt::blue));
    chart.refreshNow();
    const auto axes = chart.chart()->axes();
    QCOMPARE(axes.size(), 2);
    for (QAbstractAxis* a : axes) {
        auto* v = qobject_cast<QValueAxis*>(a);
        QVERIFY(v);
        QCOMPARE(v->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(v->tickAnchor(), 0.0);
        QCOMPARE(v->tickInterval(), roundTickStep(v->max() - v->min()));
    }
    QCOMPARE(qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0))->tickInterval(), 50.0);
}

QTEST_MAIN(TestSeries)
#include "tst_gui_series.moc"
