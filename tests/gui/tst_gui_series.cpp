// Long series in the workbench: the loss smoothing reproduces TensorBoard's
// debiased EMA, a restarted attempt replaces its steps, and a chart of a
// million points draws. The series table itself: tests/app/tst_app_series.cpp.
#include "gui_test_support.hpp"

#include "models/ema_smoothing.hpp"
#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"
#include "views/clock_ticks.hpp"
#include "views/live_run_view.hpp"
#include "views/series_chart.hpp"

#include <QComboBox>
#include <QDateTime>
#include <QRandomGenerator>
#include <QValueAxis>
#include <QLineSeries>
#include <QLogValueAxis>
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
    void hoverShowsEveryLinesValue();
    void boxZoomPanAndReset();
    void lossOnALogScale();
    void everyLineCanBeSmoothed();
    void liveChartsByStepOrTime();
    void wallClockAxis();
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
    // The same rows by the seconds since the first step: the restart replaced them there too.
    QCOMPARE(live.tableByTime().size(), 15);
    QCOMPARE(live.tableByTime().x(0), 0.0);
    QCOMPARE(live.tableByTime().x(14), 215.0 - 101.0);
    QCOMPARE(live.tableByTime().value(LiveRunModel::Loss, 10), 1.0);
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
    QList<QAbstractAxis*> axes;
    for (QAbstractAxis* a : chart.chart()->axes())
        if (a->isVisible()) axes << a; // the clock axis is hidden until asked for
    QCOMPARE(axes.size(), 2);
    for (QAbstractAxis* a : axes) {
        auto* v = qobject_cast<QValueAxis*>(a);
        QVERIFY(v);
        QCOMPARE(v->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(v->tickAnchor(), 0.0);
        QCOMPARE(v->tickInterval(), roundTickStep(v->max() - v->min()));
    }
    QCOMPARE(qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0))->tickInterval(), 50.0);

    // Labels carry the decimals their ticks need, never a repeated number:
    // an empty chart's steps read 0, 1 (they read 0 0 0 1 1 1) and a learning
    // rate's axis 0.00010, 0.00015, ... (whole numbers would read 0 0 0).
    QCOMPARE(tickDecimals(50), 0);
    QCOMPARE(tickDecimals(1), 0);
    QCOMPARE(tickDecimals(0.5), 1);
    QCOMPARE(tickDecimals(0.1), 1);
    QCOMPARE(tickDecimals(0.05), 2);
    QCOMPARE(tickDecimals(2e-6), 6);
    SeriesChart empty;
    empty.resize(600, 400);
    empty.show();
    QVERIFY(QTest::qWaitForWindowExposed(&empty));
    empty.refreshNow();
    SeriesTable lr(1);
    for (int i = 1; i <= 100; ++i) lr.append(i, {1e-4 + 2e-6 * i});
    SeriesChart rates;
    rates.resize(600, 400);
    rates.show();
    rates.addLine(&lr, 0, QPen(Qt::blue));
    rates.refreshNow();
    for (SeriesChart* c : {&empty, &rates})
        for (QAbstractAxis* a : c->chart()->axes()) {
            auto* v = qobject_cast<QValueAxis*>(a);
            if (!v || !v->isVisible()) continue;
            QStringList labels = test::tickLabels(v);
            QVERIFY2(labels.size() >= 2 && labels.removeDuplicates() == 0, qPrintable(labels.join(QLatin1Char(' '))));
        }
}

namespace {

// A shown chart of two lines over steps 1..200: y = 10 - step/20 and its half.
struct TwoLines {
    SeriesTable table{2};
    SeriesChart chart;
    TwoLines()
    {
        for (int i = 1; i <= 200; ++i) table.append(i, {10.0 - i / 20.0, (10.0 - i / 20.0) / 2});
        chart.resize(900, 500);
        chart.show();
        chart.setSeriesName(chart.addLine(&table, 0, QPen(Qt::blue)), QStringLiteral("raw"));
        chart.setSeriesName(chart.addLine(&table, 1, QPen(Qt::red)), QStringLiteral("half"));
        chart.setAxisTitles(QStringLiteral("Step"), QStringLiteral("Loss"));
        chart.refreshNow();
    }
    // Where step x is, in the view's coordinates (the plot's vertical middle).
    QPoint at(double x) const
    {
        const QPointF p = chart.chart()->mapToPosition(QPointF(x, 5), chart.chart()->series().value(0));
        return QPointF(p.x(), chart.chart()->plotArea().center().y()).toPoint();
    }
};

} // namespace

// Hovering reads the values under the cursor, as TensorBoard and W&B do:
// the step, then every line at its nearest point; nothing outside the plot.
void TestSeries::hoverShowsEveryLinesValue()
{
    TwoLines c;
    QVERIFY(QTest::qWaitForWindowExposed(&c.chart));
    QTest::mouseMove(c.chart.viewport(), c.at(100));
    const QString text = c.chart.hoverText();
    QVERIFY2(text.contains(QStringLiteral("Step: 100")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("raw: 5")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("half: 2.5")), qPrintable(text));
    QCOMPARE(c.chart.hoverTextAt(QPointF(2, 2)), QString());
    c.chart.setSeriesVisible(1, false);
    c.chart.refreshNow();
    QVERIFY(!c.chart.hoverTextAt(c.at(40)).contains(QStringLiteral("half")));
}

// A left-drag zooms to the box's steps (y follows the data in them), a
// Shift-drag pans, a double-click follows the whole run again.
void TestSeries::boxZoomPanAndReset()
{
    TwoLines c;
    QVERIFY(QTest::qWaitForWindowExposed(&c.chart));
    QWidget* v = c.chart.viewport();
    QTest::mousePress(v, Qt::LeftButton, {}, c.at(50));
    QTest::mouseMove(v, c.at(100));
    QTest::mouseRelease(v, Qt::LeftButton, {}, c.at(100));
    QVERIFY(!c.chart.isFollowing());
    QVERIFY2(std::abs(c.chart.xMin() - 50) < 2 && std::abs(c.chart.xMax() - 100) < 2,
             qPrintable(QStringLiteral("%1 .. %2").arg(c.chart.xMin()).arg(c.chart.xMax())));
    auto* y = qobject_cast<QValueAxis*>(c.chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y->max() < 8.5); // the zoomed steps reach 7.5 at most, the run 9.95
    // A click is not a zoom.
    const double width = c.chart.xMax() - c.chart.xMin();
    QTest::mouseClick(v, Qt::LeftButton, {}, c.at(70));
    QCOMPARE(c.chart.xMax() - c.chart.xMin(), width);
    // Shift-drag to the left moves the view right, by as many steps as the cursor moved.
    const QPoint from = c.at(75);
    const QPoint to = from - QPoint(c.at(85).x() - c.at(75).x(), 0);
    QTest::mousePress(v, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(v, to);
    QTest::mouseRelease(v, Qt::LeftButton, Qt::ShiftModifier, to);
    QVERIFY2(std::abs(c.chart.xMin() - 60) < 2, qPrintable(QString::number(c.chart.xMin())));
    QVERIFY(std::abs((c.chart.xMax() - c.chart.xMin()) - width) < 1e-6);
    QTest::mouseDClick(v, Qt::LeftButton, {}, c.at(70));
    c.chart.refreshNow();
    QVERIFY(c.chart.isFollowing());
    QCOMPARE(c.chart.xMin(), 1.0);
    QCOMPARE(c.chart.xMax(), 200.0);
}

void TestSeries::lossOnALogScale()
{
    TwoLines c;
    QVERIFY(QTest::qWaitForWindowExposed(&c.chart));
    c.chart.setLogScale(true);
    QVERIFY(c.chart.isLogScale());
    const auto vertical = c.chart.chart()->axes(Qt::Vertical);
    QCOMPARE(vertical.size(), 1);
    auto* log = qobject_cast<QLogValueAxis*>(vertical.front());
    QVERIFY(log);
    // The lines reach 0 at step 200: three decades below the top (9.95), in whole decades.
    QVERIFY2(qFuzzyCompare(log->min(), 0.001), qPrintable(QString::number(log->min())));
    QVERIFY(qFuzzyCompare(log->max(), 10.0));
    for (QAbstractSeries* s : c.chart.chart()->series()) {
        QVERIFY(s->attachedAxes().contains(log));
        for (const QPointF& p : static_cast<QLineSeries*>(s)->points()) QVERIFY(p.y() > 0); // step 200's zero is left out
    }
    c.chart.setLogScale(false);
    QVERIFY(qobject_cast<QValueAxis*>(c.chart.chart()->axes(Qt::Vertical).value(0)));
    QCOMPARE(c.chart.chart()->axes(Qt::Vertical).size(), 1);
}

namespace {

// The values of the series named `name` in a chart's CSV export (every point).
std::vector<double> csvValues(const QByteArray& csv, const QByteArray& name)
{
    std::vector<double> out;
    for (const QByteArray& line : csv.split('\n'))
        if (line.startsWith(QByteArray('"' + name + "\","))) out.push_back(line.split(',').value(2).toDouble());
    return out;
}

void compareSeries(const std::vector<double>& ours, const std::vector<double>& expected)
{
    QCOMPARE(ours.size(), expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i)
        QVERIFY2(std::abs(ours[i] - expected[i]) < 1e-9 * std::max(1.0, std::abs(expected[i])), qPrintable(QString::number(i)));
}

} // namespace

// Any line (throughput, a compared run) is smoothed as TensorBoard smooths,
// computed as rows arrive, and again from the start when the table is cut
// back (a restarted attempt) or the weight changes.
void TestSeries::everyLineCanBeSmoothed()
{
    QRandomGenerator rng(5);
    SeriesTable t(1);
    std::vector<double> v;
    auto add = [&](int n) {
        for (int i = 0; i < n; ++i) {
            v.push_back(1000 + rng.generateDouble() * 200);
            t.append(static_cast<double>(v.size()), {v.back()});
        }
    };
    add(300);
    SeriesChart chart;
    chart.resize(800, 400);
    chart.setSmoothing(0.6);
    chart.setSeriesName(chart.addLine(&t, 0, QPen(Qt::gray)), QStringLiteral("raw"));
    chart.setSeriesName(chart.addSmoothedLine(&t, 0, QPen(Qt::green)), QStringLiteral("smooth"));
    chart.refreshNow();
    compareSeries(csvValues(chart.csv(), "smooth"), emaSmooth(v, 0.6));
    compareSeries(csvValues(chart.csv(), "raw"), v);
    add(200); // arrives while live
    chart.refreshNow();
    compareSeries(csvValues(chart.csv(), "smooth"), emaSmooth(v, 0.6));
    t.truncate(100); // a restarted attempt replaces steps 101..
    v.resize(100);
    add(50);
    chart.refreshNow();
    compareSeries(csvValues(chart.csv(), "smooth"), emaSmooth(v, 0.6));
    chart.setSmoothing(0.95);
    chart.refreshNow();
    compareSeries(csvValues(chart.csv(), "smooth"), emaSmooth(v, 0.95));
    chart.setSmoothing(0);
    chart.refreshNow();
    compareSeries(csvValues(chart.csv(), "smooth"), v);
}

// The live charts' x axis: steps, or seconds since the first step (a run
// that slowed down shows it), as the compare view offers.
void TestSeries::liveChartsByStepOrTime()
{
    LiveRunModel live;
    live.reset(1, 40, {});
    for (int s = 1; s <= 40; ++s) {
        protocol::StepMetrics m;
        m.rank = 0;
        m.step = s;
        m.loss = 5.0 - s * 0.01;
        m.tokensPerS = 1000;
        m.stepMs = s <= 20 ? 500 : 1500;
        m.t = 1000 + (s <= 20 ? s * 0.5 : 10 + (s - 20) * 1.5);
        live.log(m);
    }
    RunLogModel logs;
    LiveRunView view;
    view.resize(1200, 800);
    view.setRun(&live, &logs, 1, 1, QStringLiteral("tiny"));
    view.lossChart()->refreshNow();
    QCOMPARE(view.lossChart()->xMax(), 40.0);
    // The hover says when the step ran: its time of day and how long into the run.
    const QString byStep = view.lossChart()->hoverTextAt(view.lossChart()->chart()->plotArea().center());
    QVERIFY2(byStep.startsWith(QStringLiteral("Step: 2")) && byStep.contains(QStringLiteral(" s in)")), qPrintable(byStep));
    view.xAxisBox()->setCurrentIndex(1);
    view.lossChart()->refreshNow();
    QCOMPARE(view.lossChart()->xMin(), 0.0);
    QCOMPARE(view.lossChart()->xMax(), 39.5); // 20 steps of 0.5 s, then 20 of 1.5 s, after the first
    QCOMPARE(view.rateChart()->xMax(), 39.5);
    view.rateChart()->refreshNow();
    const QString byTime = view.lossChart()->hoverTextAt(view.lossChart()->chart()->plotArea().center());
    QVERIFY2(byTime.startsWith(QStringLiteral("Seconds")) && byTime.contains(QStringLiteral("(step ")), qPrintable(byTime));
    // By the wall clock: the same seconds, read as the time of day of each step.
    view.xAxisBox()->setCurrentIndex(2);
    view.lossChart()->refreshNow();
    QVERIFY(view.lossChart()->showsClock());
    QCOMPARE(view.lossChart()->clockOrigin(), 1000.5);
    QCOMPARE(view.lossChart()->xMax(), 39.5);
    QVERIFY(view.lossChart()->hoverTextAt(view.lossChart()->chart()->plotArea().center()).startsWith(QStringLiteral("Time: ")));
    view.xAxisBox()->setCurrentIndex(0);
    view.lossChart()->refreshNow();
    QVERIFY(!view.lossChart()->showsClock());
    QCOMPARE(view.lossChart()->xMax(), 40.0);
}

// A wall-clock x axis ticks at round times of day, as the language writes
// them, with the date when the run crosses midnight; back to numbers after.
void TestSeries::wallClockAxis()
{
    QCOMPARE(clockTickStep(50), 10.0);
    QCOMPARE(clockTickStep(600), 120.0);
    QCOMPARE(clockTickStep(3 * 3600), 1800.0);
    QCOMPARE(clockTickStep(3 * 86400), 43200.0);
    const QDateTime start(QDate(2026, 11, 26), QTime(21, 29, 10));
    const double origin = start.toSecsSinceEpoch();
    const QLocale c(QLocale::C);
    std::vector<ClockTick> ticks = clockTicks(origin, 0, 700, c);
    QVERIFY(ticks.size() >= 4 && ticks.size() <= 6);
    QCOMPARE(ticks.front().label, QStringLiteral("21:30"));
    QCOMPARE(ticks.front().x, 50.0); // 21:30:00 is 50 s after 21:29:10
    QCOMPARE(ticks[1].label, QStringLiteral("21:32"));
    ticks = clockTicks(origin, 0, 40, c);
    QCOMPARE(ticks.front().label, QStringLiteral("21:29:10")); // every 10 s, the first at the origin
    QCOMPARE(ticks[1].label, QStringLiteral("21:29:20"));
    // Across midnight, each tick names its day.
    ticks = clockTicks(origin, 0, 4 * 3600, c);
    bool nextDay = false;
    for (const ClockTick& t : ticks) nextDay = nextDay || t.label.startsWith(QStringLiteral("Fri"));
    QVERIFY(nextDay);
    QCOMPARE(clockTicks(origin, 0, 700, QLocale(QLocale::German)).front().label, QStringLiteral("21:30"));

    SeriesTable t(1);
    for (int i = 0; i <= 700; i += 10) t.append(i, {5.0 - i * 0.001});
    SeriesChart chart;
    chart.resize(900, 500);
    chart.show();
    chart.addLine(&t, 0, QPen(Qt::blue));
    chart.setAxisTitles(QStringLiteral("Time"), QStringLiteral("Loss"));
    chart.setClockOrigin(origin);
    chart.refreshNow();
    const QStringList labels = chart.xTickLabels();
    QVERIFY2(labels.contains(QStringLiteral("21:30")) || labels.contains(QStringLiteral("9:30 PM")), qPrintable(labels.join(u',')));
    QVERIFY(chart.hoverTextAt(chart.chart()->plotArea().center()).contains(QStringLiteral("21:3")));
    chart.setClockOrigin(std::nan(""));
    chart.refreshNow();
    QVERIFY(!chart.showsClock());
    QCOMPARE(chart.xTickLabels().front(), QStringLiteral("0"));
    QCOMPARE(chart.chart()->series().front()->attachedAxes().size(), 2);
}

QTEST_MAIN(TestSeries)
#include "tst_gui_series.moc"
