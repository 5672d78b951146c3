// Long series stay exact where it matters: decimation keeps every pixel
// column's first, lowest, highest and last point (so a single spike among a
// million points is drawn) and the min/max pyramid agrees with a brute-force
// scan. The series table is app/'s (Qt Core): no window.
#include "history/min_max_pyramid.hpp"
#include "history/series_table.hpp"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>

using namespace sb::app;

class TestAppSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pyramidMatchesBruteForce();
    void decimationKeepsSpikes();
    void decimationIsExactPerPixel();
    void fewPointsAreDrawnAsTheyAre();
};

void TestAppSeries::pyramidMatchesBruteForce()
{
    QRandomGenerator rng(7);
    std::vector<double> v;
    MinMaxPyramid p;
    for (int i = 0; i < 70000; ++i) {
        v.push_back(i % 97 == 0 ? std::nan("") : rng.generateDouble() * 100 - 50);
        p.append(v);
    }
    for (int trial = 0; trial < 2000; ++trial) {
        std::size_t a = rng.bounded(70000u), b = rng.bounded(70001u);
        if (a > b) std::swap(a, b);
        if (trial % 5 == 0) b = std::min<std::size_t>(a + rng.bounded(40u), v.size());
        const MinMaxPyramid::Extremes e = p.query(v, a, b);
        double lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = a; i < b; ++i)
            if (!std::isnan(v[i])) {
                lo = std::min(lo, v[i]);
                hi = std::max(hi, v[i]);
            }
        if (lo > hi) {
            QCOMPARE(e.minIndex, -1);
            continue;
        }
        QVERIFY(e.minIndex >= static_cast<std::int64_t>(a) && e.minIndex < static_cast<std::int64_t>(b));
        QCOMPARE(v[static_cast<std::size_t>(e.minIndex)], lo);
        QCOMPARE(v[static_cast<std::size_t>(e.maxIndex)], hi);
    }
    // Rebuilding gives the same answers.
    MinMaxPyramid q;
    q.rebuild(v);
    const auto e1 = p.query(v, 123, 65432), e2 = q.query(v, 123, 65432);
    QCOMPARE(e1.minIndex, e2.minIndex);
    QCOMPARE(e1.maxIndex, e2.maxIndex);
}

void TestAppSeries::decimationKeepsSpikes()
{
    SeriesTable t(1);
    const int n = 1000000;
    t.reserve(n);
    for (int i = 1; i <= n; ++i) {
        double y = 2.0 + 0.001 * std::sin(i * 0.01);
        if (i == 777777) y = 50.0;  // one spike up
        if (i == 123457) y = -20.0; // and one down
        t.append(i, {y});
    }
    const QList<QPointF> drawn = t.decimated(0, 1, n, 800);
    QVERIFY(drawn.size() <= 800 * 4 + 2);
    bool up = false, down = false;
    for (const QPointF& p : drawn) {
        up = up || (p.x() == 777777 && p.y() == 50.0);
        down = down || (p.x() == 123457 && p.y() == -20.0);
    }
    QVERIFY(up);
    QVERIFY(down);
    // x stays in order, so the line is drawn as the data goes.
    for (int i = 1; i < drawn.size(); ++i) QVERIFY(drawn[i].x() >= drawn[i - 1].x());
    double lo = 0, hi = 0;
    QVERIFY(t.valueRange(0, 1, n, &lo, &hi));
    QCOMPARE(lo, -20.0);
    QCOMPARE(hi, 50.0);
}

void TestAppSeries::decimationIsExactPerPixel()
{
    // Against an independent reference: bucket by pixel, take first/min/max/last.
    QRandomGenerator rng(3);
    SeriesTable t(1);
    std::vector<double> xs, ys;
    double x = 0;
    for (int i = 0; i < 50000; ++i) {
        x += 0.5 + rng.generateDouble();
        const double y = rng.generateDouble();
        xs.push_back(x);
        ys.push_back(y);
        t.append(x, {y});
    }
    const double x0 = xs[1000], x1 = xs[40000];
    const int pixels = 300;
    const QList<QPointF> drawn = t.decimated(0, x0, x1, pixels);
    const double w = (x1 - x0) / pixels;
    for (int p = 0; p < pixels; ++p) {
        const double a = x0 + p * w, b = x0 + (p + 1) * w;
        double lo = INFINITY, hi = -INFINITY;
        double first = NAN, last = NAN;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            if (xs[i] < a || xs[i] >= b) continue;
            if (std::isnan(first)) first = ys[i];
            last = ys[i];
            lo = std::min(lo, ys[i]);
            hi = std::max(hi, ys[i]);
        }
        if (std::isnan(first)) continue;
        QList<double> inPixel;
        for (const QPointF& d : drawn)
            if (d.x() >= a && d.x() < b) inPixel << d.y();
        QVERIFY(inPixel.size() >= 2 && inPixel.size() <= 4);
        QCOMPARE(inPixel.front(), first);
        QCOMPARE(inPixel.back(), last);
        QCOMPARE(*std::min_element(inPixel.begin(), inPixel.end()), lo);
        QCOMPARE(*std::max_element(inPixel.begin(), inPixel.end()), hi);
    }
    // The points just outside the range are drawn too, so the line reaches the edges.
    QCOMPARE(drawn.front().x(), xs[999]);
    QCOMPARE(drawn.back().x(), xs[40001]);
}

void TestAppSeries::fewPointsAreDrawnAsTheyAre()
{
    SeriesTable t(2);
    for (int i = 1; i <= 20; ++i) t.append(i, {i * 1.0, i % 2 ? std::nan("") : 1.0});
    QCOMPARE(t.decimated(0, 1, 20, 800).size(), 20);
    QCOMPARE(t.decimated(1, 1, 20, 800).size(), 10); // NaN is no point
}

QTEST_GUILESS_MAIN(TestAppSeries)
#include "tst_app_series.moc"
