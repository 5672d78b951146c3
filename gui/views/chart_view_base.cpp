#include "chart_view_base.hpp"

#include "text/labels.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <QContextMenuEvent>
#include <QEvent>
#include <QLocale>
#include <QMenu>
#include <QMetaMethod>
#include <QLegend>

namespace sb::gui {

ChartViewBase::ChartViewBase(QWidget* parent) : QChartView(parent)
{
    auto* c = new QChart;
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->legend()->setAlignment(Qt::AlignBottom);
    QFont small = c->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c->legend()->setFont(small);
    // Axis labels in the language's own digits and separators ("0,5" in German).
    c->setLocalizeNumbers(true);
    c->setLocale(QLocale());
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(kMinimumChartHeight);
}

void ChartViewBase::paintEvent(QPaintEvent* event)
{
    QChartView::paintEvent(event);
    ++paintCount_;
}

void ChartViewBase::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    addViewActions(menu);
    // Exports only where one has been connected (the window decides where files go).
    if (isSignalConnected(QMetaMethod::fromSignal(&ChartViewBase::exportRequested))) {
        if (!menu.isEmpty()) menu.addSeparator();
        menu.addAction(tr("Export as PNG…"), this, [this] { Q_EMIT exportRequested(ExportFormat::Png); });
        menu.addAction(tr("Export as SVG…"), this, [this] { Q_EMIT exportRequested(ExportFormat::Svg); });
        if (hasCsv()) menu.addAction(tr("Export data as CSV…"), this, [this] { Q_EMIT exportRequested(ExportFormat::Csv); });
    }
    if (menu.isEmpty()) {
        QChartView::contextMenuEvent(event);
        return;
    }
    menu.exec(event->globalPos());
}

void ChartViewBase::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        chart()->setLocale(QLocale()); // the language manager set the default before this event
        retranslate();
    }
    QChartView::changeEvent(event);
}

double roundTickStep(double span, int most)
{
    if (!(span > 0) || !std::isfinite(span) || most < 1) return 1;
    const double raw = span / most;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
    return 10 * magnitude;
}

int tickDecimals(double step)
{
    if (!(step > 0) || !std::isfinite(step) || step >= 1) return 0;
    return std::min(9, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
}

double memoryAxisUnit(qint64 top)
{
    constexpr double kMiB = 1024.0 * 1024;
    return top >= static_cast<qint64>(2) * 1024 * 1024 * 1024 ? 1024 * kMiB : kMiB;
}

void setRoundRange(QValueAxis* axis, double lo, double hi, bool whole)
{
    double step = roundTickStep(hi - lo);
    if (whole) step = std::max(step, 1.0);
    if (axis->tickInterval() != step) axis->setTickInterval(step);
    if (axis->tickAnchor() != 0) axis->setTickAnchor(0);
    if (axis->tickType() != QValueAxis::TicksDynamic) axis->setTickType(QValueAxis::TicksDynamic);
    const QString format = QStringLiteral("%.%1f").arg(tickDecimals(step));
    if (axis->labelFormat() != format) axis->setLabelFormat(format);
    axis->setRange(lo, hi);
}

void ChartViewBase::addOverCapacityBand(QLineSeries* capacity, QAbstractAxis* x, QValueAxis* y)
{
    capacity_ = capacity;
    bandAxis_ = y;
    bandTop_ = new QLineSeries(this);
    band_ = new QAreaSeries(bandTop_, capacity);
    band_->setPen(Qt::NoPen);
    chart()->addSeries(band_);
    band_->attachAxis(x);
    band_->attachAxis(y);
    for (QLegendMarker* m : chart()->legend()->markers(band_)) m->setVisible(false);
    connect(y, &QValueAxis::maxChanged, this, [this] { updateOverCapacityBand(band_->color().alpha() > 40); });
    updateOverCapacityBand(false);
}

void ChartViewBase::updateOverCapacityBand(bool over)
{
    if (!band_) return;
    QColor c = overCapacityColor();
    c.setAlpha(over ? 46 : 22);
    band_->setColor(c);
    const QList<QPointF> cap = capacity_->points();
    if (cap.size() != 2 || bandAxis_->max() <= cap.first().y()) {
        bandTop_->clear();
        return;
    }
    const double top = bandAxis_->max();
    const QList<QPointF> points{{cap.first().x(), top}, {cap.last().x(), top}};
    if (bandTop_->points() != points) bandTop_->replace(points);
}

} // namespace sb::gui
