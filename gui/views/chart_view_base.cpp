#include "chart_view_base.hpp"

#include "text/labels.hpp"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <QContextMenuEvent>
#include <QEvent>
#include <QGraphicsLayout>
#include <QFontMetricsF>
#include <QLocale>
#include <QMenu>
#include <QMetaMethod>
#include <QLegend>

namespace sb::gui {

namespace {

constexpr double kLabelPadding = 4; // QtCharts' padding on each side of an axis label
// Set by setRoundRange(): the axis is one of its (whole or not), and the
// plot's length along it at the last layout, in pixels (set by the view).
const char* const kWholeProperty = "sbRoundWhole";
const char* const kPixelsProperty = "sbAxisPixels";

// How far the labels of ticks `step` apart reach along the axis: the widest
// on a horizontal axis, a line's height on a vertical one (with QtCharts' text margins).
double labelExtent(const QValueAxis* axis, double lo, double hi, double step)
{
    const QFontMetricsF metrics(axis->labelsFont());
    if (axis->orientation() == Qt::Vertical) return metrics.height() + 2;
    const int decimals = tickDecimals(step);
    const QLocale locale;
    double widest = 0;
    for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
        widest = std::max(widest, metrics.horizontalAdvance(locale.toString(v, 'f', decimals)));
    return widest + 2;
}

// Bar labels side by side while they fit, else upright (QtCharts would cut them to "…").
void fitBarLabels(QBarCategoryAxis* axis, double width)
{
    const QStringList labels = axis->categories();
    if (labels.isEmpty()) return;
    const QFontMetricsF metrics(axis->labelsFont());
    double widest = 0;
    for (const QString& l : labels) widest = std::max(widest, metrics.horizontalAdvance(l) + 2);
    const int angle = width / (labels.size() + 1) - 2 * kLabelPadding >= widest ? 0 : -90;
    if (axis->labelsAngle() != angle) axis->setLabelsAngle(angle);
}

} // namespace

ChartViewBase::ChartViewBase(QWidget* parent) : QChartView(parent)
{
    auto* c = new QChart;
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    // Tight margins and a title no larger than the text: the height goes to the plot.
    c->setMargins(QMargins(4, 2, 4, 2));
    c->layout()->setContentsMargins(0, 0, 0, 0);
    QFont title = font();
    title.setBold(true);
    c->setTitleFont(title);
    c->legend()->setAlignment(Qt::AlignBottom);
    c->legend()->setContentsMargins(0, 0, 0, 0);
    QFont small = c->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c->legend()->setFont(small);
    // Axis labels in the language's own digits and separators ("0,5" in German).
    c->setLocalizeNumbers(true);
    c->setLocale(QLocale());
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    // After the layout that changed the plot, not inside it: fitting the axes lays the chart out again.
    connect(c, &QChart::plotAreaChanged, this, &ChartViewBase::fitAxes, Qt::QueuedConnection);
    updateMinimumSize();
}

QSize ChartViewBase::minimumSizeHint() const
{
    // Before the first layout: a title, an axis with its title on each side and a legend line.
    const QSize chrome = chrome_.isValid() ? chrome_ : QSize(90, 100);
    return QSize(kMinimumPlotWidth, kMinimumPlotHeight) + chrome;
}

void ChartViewBase::updateMinimumSize()
{
    // QChartView takes its minimum size from its chart's at every resize.
    chart()->setMinimumSize(minimumSizeHint());
    setMinimumSize(minimumSizeHint());
}

void ChartViewBase::fitAxes()
{
    const QRectF plot = chart()->plotArea();
    if (plot.width() < 1 || plot.height() < 1) return;
    const QSize chrome = (QSizeF(size()) - plot.size()).toSize();
    if (chrome != chrome_) {
        chrome_ = chrome;
        updateMinimumSize();
    }
    for (QAbstractAxis* axis : chart()->axes()) {
        if (auto* value = qobject_cast<QValueAxis*>(axis); value && value->property(kWholeProperty).isValid()) {
            const double pixels = value->orientation() == Qt::Horizontal ? plot.width() : plot.height();
            if (std::abs(value->property(kPixelsProperty).toDouble() - pixels) < 0.5) continue;
            value->setProperty(kPixelsProperty, pixels);
            setRoundRange(value, value->min(), value->max(), value->property(kWholeProperty).toBool());
        } else if (auto* bars = qobject_cast<QBarCategoryAxis*>(axis)) {
            fitBarLabels(bars, plot.width());
        }
    }
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

double fittedTickStep(double lo, double hi, bool whole, double pixels, const std::function<double(double step)>& labelExtent)
{
    double step = 1;
    for (int most = 6; most >= 1; --most) {
        step = roundTickStep(hi - lo, most);
        if (whole) step = std::max(step, 1.0);
        if (!(pixels > 0)) return step;
        const double ticks = std::max(1.0, std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9) + 1);
        // QtCharts gives each label the axis' length shared by the ticks, less a padding on both sides.
        if (pixels / ticks - 2 * kLabelPadding >= labelExtent(step)) return step;
    }
    return step;
}

void setRoundRange(QValueAxis* axis, double lo, double hi, bool whole)
{
    axis->setProperty(kWholeProperty, whole);
    const double step = fittedTickStep(lo, hi, whole, axis->property(kPixelsProperty).toDouble(),
                                       [&](double s) { return labelExtent(axis, lo, hi, s); });
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
