#include "series_chart.hpp"

#include "clock_ticks.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QElapsedTimer>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QHash>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMenu>
#include <QRubberBand>
#include <QCategoryAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::gui {

using app::SeriesTable;

SeriesChart::SeriesChart(QWidget* parent)
    : ChartViewBase(parent), xAxis_(new QValueAxis), clockAxis_(new QCategoryAxis), clockOrigin_(std::nan("")), yAxis_(new QValueAxis)
{
    chart()->addAxis(xAxis_, Qt::AlignBottom);
    chart()->addAxis(clockAxis_, Qt::AlignBottom);
    clockAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    clockAxis_->setVisible(false);
    chart()->addAxis(yAxis_, Qt::AlignLeft);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    refreshTimer_.setSingleShot(true);
    refreshTimer_.setInterval(30);
    connect(&refreshTimer_, &QTimer::timeout, this, &SeriesChart::refreshNow);
    viewport()->setMouseTracking(true);
    crosshair_ = new QGraphicsLineItem(chart());
    crosshair_->setPen(QPen(QColor(0x60, 0x60, 0x60), 1, Qt::DashLine));
    crosshair_->setZValue(100);
    crosshair_->hide();
    rubber_ = new QRubberBand(QRubberBand::Rectangle, viewport());
    emptyText_ = new QGraphicsSimpleTextItem(chart());
    emptyText_->setBrush(QColor(0x70, 0x70, 0x70));
    emptyText_->setZValue(50);
    connect(chart(), &QChart::plotAreaChanged, this, &SeriesChart::placeEmptyText);
    retranslate();
    showEmpty(true);
}

void SeriesChart::retranslate()
{
    emptyText_->setText(tr("No data yet"));
    placeEmptyText();
    scheduleRefresh(); // a clock axis writes its times in the new language
    Q_EMIT languageChanged();
}

bool SeriesChart::isEmptyShown() const { return emptyText_->isVisible(); }

void SeriesChart::showEmpty(bool empty)
{
    emptyText_->setVisible(empty);
    for (QAbstractAxis* axis : std::initializer_list<QAbstractAxis*>{xAxis_, clockAxis_, yAxis_, logAxis_})
        if (axis && axis->labelsVisible() == empty) axis->setLabelsVisible(!empty);
}

void SeriesChart::placeEmptyText()
{
    const QRectF plot = chart()->plotArea();
    emptyText_->setPos(plot.center() - emptyText_->boundingRect().center());
}

QAbstractAxis* SeriesChart::valueAxis() const
{
    return log_ ? static_cast<QAbstractAxis*>(logAxis_) : static_cast<QAbstractAxis*>(yAxis_);
}

QValueAxis* SeriesChart::shownXAxis() const { return showsClock() ? clockAxis_ : xAxis_; }

bool SeriesChart::showsClock() const { return std::isfinite(clockOrigin_); }

void SeriesChart::attach(QAbstractSeries* s)
{
    chart()->addSeries(s);
    s->attachAxis(shownXAxis());
    s->attachAxis(valueAxis());
}

void SeriesChart::setClockOrigin(double unixSeconds)
{
    if (unixSeconds == clockOrigin_ || (std::isnan(unixSeconds) && std::isnan(clockOrigin_))) return;
    const bool was = showsClock();
    clockOrigin_ = unixSeconds;
    if (was != showsClock()) {
        QValueAxis* from = was ? clockAxis_ : xAxis_;
        QValueAxis* to = shownXAxis();
        for (QAbstractSeries* s : chart()->series()) {
            s->detachAxis(from);
            s->attachAxis(to);
        }
        to->setTitleText(from->titleText());
        from->setVisible(false);
        to->setVisible(true);
    }
    scheduleRefresh();
}

void SeriesChart::setXRange(QValueAxis* axis, double x0, double x1)
{
    if (axis != clockAxis_) {
        setRoundRange(axis, x0, x1, true); // steps, or whole seconds
        return;
    }
    for (const QString& label : clockAxis_->categoriesLabels()) clockAxis_->remove(label);
    clockAxis_->setStartValue(x0);
    for (const ClockTick& t : clockTicks(clockOrigin_, x0, x1, chart()->locale())) clockAxis_->append(t.label, t.x);
    clockAxis_->setRange(x0, x1);
}

QStringList SeriesChart::xTickLabels() const
{
    if (showsClock()) return clockAxis_->categoriesLabels();
    QStringList out;
    const double step = xAxis_->tickInterval();
    if (!(step > 0)) return out;
    for (double v = std::ceil(xAxis_->min() / step) * step; v <= xAxis_->max() + step * 1e-9; v += step)
        out << chart()->locale().toString(v, 'f', 0);
    return out;
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

void SeriesChart::setPointsShown(int id, bool shown)
{
    if (QLineSeries* line = series_[static_cast<std::size_t>(id)].line) line->setPointsVisible(shown);
}

int SeriesChart::addSmoothedLine(const SeriesTable* table, int column, const QPen& pen)
{
    const int id = addLine(nullptr, 0, pen);
    Series& s = series_[static_cast<std::size_t>(id)];
    s.source = table;
    s.sourceColumn = column;
    s.smoothed = std::make_shared<SeriesTable>(1);
    s.smoother.reset(smoothing_);
    s.table = s.smoothed.get();
    return id;
}

void SeriesChart::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == smoothing_) return;
    smoothing_ = weight;
    for (Series& s : series_)
        if (s.smoothed) {
            s.smoothed->clear();
            s.smoother.reset(weight);
        }
    scheduleRefresh();
}

void SeriesChart::updateSmoothed(Series& s) const
{
    // Only the rows that arrived since the last refresh: O(new rows). A
    // table cut back (a restarted attempt) or rewritten starts again.
    if (s.source->generation() != s.seenGeneration || s.smoothed->size() > s.source->size()) {
        s.smoothed->clear();
        s.smoother.reset(smoothing_);
        s.seenGeneration = s.source->generation();
    }
    for (qsizetype i = s.smoothed->size(); i < s.source->size(); ++i)
        s.smoothed->append(s.source->x(i), {s.smoother.next(s.source->value(s.sourceColumn, i))});
}

void SeriesChart::setSeriesInLegend(int id, bool shown)
{
    const Series& s = series_[static_cast<std::size_t>(id)];
    QAbstractSeries* drawn = s.band ? static_cast<QAbstractSeries*>(s.band) : s.line;
    for (QLegendMarker* m : chart()->legend()->markers(drawn)) m->setVisible(shown);
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
    clockAxis_->setTitleText(x);
    yAxis_->setTitleText(y);
    if (logAxis_) logAxis_->setTitleText(y);
}

void SeriesChart::setXTitleShown(bool shown)
{
    xAxis_->setTitleVisible(shown);
    clockAxis_->setTitleVisible(shown);
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

double SeriesChart::xMin() const { return shownXAxis()->min(); }
double SeriesChart::xMax() const { return shownXAxis()->max(); }

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
    for (Series& s : series_)
        if (s.smoothed) updateSmoothed(s);
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
        if (log_) { // a log axis has no place for zero or below
            QList<QPointF> positive;
            positive.reserve(upper.size());
            for (const QPointF& p : upper)
                if (p.y() > 0) positive.push_back(p);
            s.line->replace(positive);
        } else {
            s.line->replace(upper);
        }
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
    setXRange(shownXAxis(), x0, x1);
    showEmpty(!any);
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    if (log_) {
        // Decades around the data; a series touching zero starts three decades below its top.
        if (!(lo > 0)) lo = hi > 0 ? hi * 1e-3 : 1e-3;
        if (!(hi > lo)) hi = lo * 10;
        logAxis_->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi))));
        lastRefreshMs_ = clock.nsecsElapsed() / 1e6;
        Q_EMIT refreshed();
        return;
    }
    if (yFromZero_) lo = std::min(lo, 0.0);
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::abs(hi) * 0.05, 1e-9);
    // Plain numbers with the decimals the ticks need: 26600, 76.8, 0.0003 (not 2.66e+04).
    setRoundRange(yAxis_, yFromZero_ && lo >= 0 ? 0.0 : lo - pad, hi + pad);
    lastRefreshMs_ = clock.nsecsElapsed() / 1e6;
    Q_EMIT refreshed();
}

int SeriesChart::drawnPoints(int id) const { return series_[static_cast<std::size_t>(id)].drawn; }

void SeriesChart::paintEvent(QPaintEvent* event)
{
    ChartViewBase::paintEvent(event);
    Q_EMIT painted();
}

void SeriesChart::setLogScale(bool on)
{
    if (on == log_) return;
    if (!logAxis_) {
        logAxis_ = new QLogValueAxis(this);
        logAxis_->setBase(10);
        // With the chart's localized numbers QtCharts reads only "%.<n><conversion>": a bare "%g" wrote empty labels.
        logAxis_->setLabelFormat(QStringLiteral("%.6g"));
        logAxis_->setMinorTickCount(-1); // the 2, 3, ... 9 of each decade
        logAxis_->setTitleText(yAxis_->titleText());
    }
    QAbstractAxis* from = valueAxis();
    log_ = on;
    QAbstractAxis* to = valueAxis();
    chart()->addAxis(to, Qt::AlignLeft);
    for (QAbstractSeries* s : chart()->series()) {
        s->detachAxis(from);
        s->attachAxis(to);
    }
    chart()->removeAxis(from); // kept: the chart no longer owns it, this view does
    from->setParent(this);
    refreshNow();
}

void SeriesChart::addViewActions(QMenu& menu)
{
    QAction* reset = menu.addAction(tr("Reset zoom"), this, &SeriesChart::follow);
    reset->setEnabled(!follow_);
    if (logAllowed_) {
        QAction* log = menu.addAction(tr("Logarithmic scale"), this, [this](bool on) { setLogScale(on); });
        log->setCheckable(true);
        log->setChecked(log_);
    }
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
