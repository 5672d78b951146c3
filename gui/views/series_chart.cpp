#include "series_chart.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QElapsedTimer>
#include <QHash>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::gui {

using app::SeriesTable;

SeriesChart::SeriesChart(QWidget* parent) : ChartViewBase(parent), xAxis_(new QValueAxis), yAxis_(new QValueAxis)
{
    chart()->addAxis(xAxis_, Qt::AlignBottom);
    chart()->addAxis(yAxis_, Qt::AlignLeft);
    xAxis_->setLabelFormat(QStringLiteral("%.0f"));
    yAxis_->setLabelFormat(QStringLiteral("%.3g"));
    chart()->legend()->setAlignment(Qt::AlignBottom);
    refreshTimer_.setSingleShot(true);
    refreshTimer_.setInterval(30);
    connect(&refreshTimer_, &QTimer::timeout, this, &SeriesChart::refreshNow);
}

void SeriesChart::attach(QAbstractSeries* s)
{
    chart()->addSeries(s);
    s->attachAxis(xAxis_);
    s->attachAxis(yAxis_);
}

int SeriesChart::addLine(const SeriesTable* table, int column, const QPen& pen)
{
    Series s;
    s.table = table;
    s.upper = column;
    s.line = new QLineSeries(this);
    s.line->setPen(pen);
    attach(s.line);
    series_.push_back(s);
    scheduleRefresh();
    return static_cast<int>(series_.size()) - 1;
}

int SeriesChart::addBand(const SeriesTable* table, int upper, int lower, const QColor& color)
{
    Series s;
    s.table = table;
    s.upper = upper;
    s.lower = lower;
    s.line = new QLineSeries(this);
    if (lower >= 0) s.base = new QLineSeries(this);
    s.band = new QAreaSeries(s.line, s.base);
    s.band->setColor(color);
    // No outline: stroking a polygon of thousands of points costs more than filling it.
    s.band->setPen(Qt::NoPen);
    attach(s.band);
    series_.push_back(s);
    scheduleRefresh();
    return static_cast<int>(series_.size()) - 1;
}

void SeriesChart::setSeriesName(int id, const QString& name)
{
    Series& s = series_[static_cast<std::size_t>(id)];
    if (s.band) s.band->setName(name);
    else s.line->setName(name);
}

void SeriesChart::setSeriesVisible(int id, bool visible)
{
    Series& s = series_[static_cast<std::size_t>(id)];
    s.visible = visible;
    if (s.band) s.band->setVisible(visible);
    else s.line->setVisible(visible);
    scheduleRefresh();
}

void SeriesChart::removeAll()
{
    for (Series& s : series_) {
        QAbstractSeries* shown = s.band ? static_cast<QAbstractSeries*>(s.band) : s.line;
        chart()->removeSeries(shown);
        delete s.band;
        delete s.line;
        delete s.base;
    }
    series_.clear();
}

void SeriesChart::setAxisTitles(const QString& x, const QString& y)
{
    xAxis_->setTitleText(x);
    yAxis_->setTitleText(y);
}

void SeriesChart::setTitle(const QString& title) { chart()->setTitle(title); }

void SeriesChart::scheduleRefresh()
{
    if (!refreshTimer_.isActive()) refreshTimer_.start();
}

bool SeriesChart::dataRange(double* x0, double* x1) const
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Series& s : series_) {
        if (!s.visible || !s.table || s.table->isEmpty()) continue;
        lo = std::min(lo, s.table->xs().front());
        hi = std::max(hi, s.table->xs().back());
    }
    if (!(lo <= hi)) return false;
    *x0 = lo;
    *x1 = hi;
    return true;
}

double SeriesChart::xMin() const { return xAxis_->min(); }
double SeriesChart::xMax() const { return xAxis_->max(); }

void SeriesChart::setXRange(double x0, double x1)
{
    if (!(x1 > x0)) return;
    follow_ = false;
    viewX0_ = x0;
    viewX1_ = x1;
    scheduleRefresh();
}

void SeriesChart::follow()
{
    follow_ = true;
    scheduleRefresh();
}

void SeriesChart::refreshNow()
{
    refreshTimer_.stop();
    QElapsedTimer clock;
    clock.start();
    double x0 = viewX0_, x1 = viewX1_;
    const bool any = dataRange(&x0, &x1);
    if (follow_) {
        if (!any) {
            x0 = 0;
            x1 = 1;
        }
        if (x1 <= x0) x1 = x0 + 1;
        viewX0_ = x0;
        viewX1_ = x1;
    } else {
        x0 = viewX0_;
        x1 = viewX1_;
    }
    const int pixels = std::max(50, static_cast<int>(chart()->plotArea().width()));
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    drawnXMax_ = std::nan("");
    // Each column is decimated once: a band's lower edge is the band below's upper edge.
    // Bands are filled polygons: half the horizontal resolution draws them as
    // well and halves what the painter fills.
    QHash<QPair<const SeriesTable*, int>, QList<QPointF>> decimated;
    auto points = [&](const SeriesTable* t, int column, bool band) -> const QList<QPointF>& {
        const auto key = qMakePair(t, band ? -1 - column : column);
        auto it = decimated.find(key);
        if (it == decimated.end()) it = decimated.insert(key, t->decimated(column, x0, x1, band ? std::max(50, pixels / 8) : pixels));
        return *it;
    };
    for (Series& s : series_) {
        if (!s.visible || !s.table) {
            s.line->clear();
            if (s.base) s.base->clear();
            s.drawn = 0;
            continue;
        }
        const bool band = s.band != nullptr;
        const QList<QPointF>& upper = points(s.table, s.upper, band);
        s.line->replace(upper);
        s.drawn = static_cast<int>(upper.size());
        if (!upper.isEmpty() && !(upper.back().x() <= drawnXMax_)) drawnXMax_ = upper.back().x();
        double a = 0, b = 0;
        if (s.table->valueRange(s.upper, x0, x1, &a, &b)) {
            lo = std::min(lo, a);
            hi = std::max(hi, b);
        }
        if (s.base) {
            s.base->replace(points(s.table, s.lower, true));
            if (s.table->valueRange(s.lower, x0, x1, &a, &b)) lo = std::min(lo, a);
        }
    }
    setRoundRange(xAxis_, x0, x1);
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    if (yFromZero_) lo = std::min(lo, 0.0);
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::abs(hi) * 0.05, 1e-9);
    setRoundRange(yAxis_, yFromZero_ && lo >= 0 ? 0.0 : lo - pad, hi + pad);
    // Plain numbers: 26600, 76.8, 0.209 (not 2.66e+04).
    const double top = std::max(std::abs(lo), std::abs(hi));
    const QString format = top >= 1000 ? QStringLiteral("%.0f") : top >= 10 ? QStringLiteral("%.1f") : QStringLiteral("%.3g");
    if (yAxis_->labelFormat() != format) yAxis_->setLabelFormat(format);
    lastRefreshMs_ = clock.nsecsElapsed() / 1e6;
    Q_EMIT refreshed();
}

int SeriesChart::drawnPoints(int id) const { return series_[static_cast<std::size_t>(id)].drawn; }

void SeriesChart::paintEvent(QPaintEvent* event)
{
    ChartViewBase::paintEvent(event);
    Q_EMIT painted();
}

void SeriesChart::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) return;
    double d0 = 0, d1 = 0;
    if (!dataRange(&d0, &d1) || d1 <= d0) return;
    const double at = chart()->mapToValue(event->position()).x();
    const double factor = std::pow(0.8, steps);
    double x0 = at - (at - viewX0_) * factor;
    double x1 = at + (viewX1_ - at) * factor;
    if (x1 - x0 >= d1 - d0) {
        follow();
        return;
    }
    // Keep the view inside the data and at least a few points wide.
    if (x1 - x0 < 4) x1 = x0 + 4;
    if (x0 < d0) {
        x1 += d0 - x0;
        x0 = d0;
    }
    if (x1 > d1) {
        x0 -= x1 - d1;
        x1 = d1;
    }
    setXRange(x0, x1);
    event->accept();
}

void SeriesChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    follow();
    ChartViewBase::mouseDoubleClickEvent(event);
}

void SeriesChart::resizeEvent(QResizeEvent* event)
{
    ChartViewBase::resizeEvent(event);
    scheduleRefresh();
}

bool SeriesChart::hasCsv() const
{
    if (csv_) return true;
    return std::any_of(series_.begin(), series_.end(), [](const Series& s) { return s.table && !s.table->isEmpty(); });
}

QByteArray SeriesChart::csv() const
{
    if (csv_) return csv_();
    // Every series in full (not decimated): series,x,value.
    QByteArray out = "series,x,value\n";
    for (const Series& s : series_) {
        if (!s.table) continue;
        QString name = s.band ? s.band->name() : s.line->name();
        name.replace(u'"', QStringLiteral("\"\""));
        const QByteArray quoted = '"' + name.toUtf8() + '"';
        const std::vector<double>& xs = s.table->xs();
        const std::vector<double>& ys = s.table->column(s.upper);
        for (std::size_t i = 0; i < xs.size(); ++i)
            if (!std::isnan(ys[i])) out += quoted + ',' + QByteArray::number(xs[i], 'g', 17) + ',' + QByteArray::number(ys[i], 'g', 17) + '\n';
    }
    return out;
}

} // namespace sb::gui
