// SeriesChart's pointer input: the wheel zooms around the pointer, a drag
// picks a range of x to zoom to (Shift or the middle button pans), a
// double-click shows everything, and hovering shows the values under the
// pointer with a crosshair. The rest of the chart is series_chart.cpp.
#include "series_chart.hpp"

#include "clock_ticks.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLineItem>
#include <QLineSeries>
#include <QLocale>
#include <QRubberBand>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace sb::gui {

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
    showRange(x0, x1);
    event->accept();
}

void SeriesChart::showRange(double x0, double x1)
{
    double d0 = 0, d1 = 0;
    if (!dataRange(&d0, &d1) || d1 <= d0 || x1 - x0 >= d1 - d0) {
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
}

void SeriesChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    follow();
    ChartViewBase::mouseDoubleClickEvent(event);
}

void SeriesChart::mousePressEvent(QMouseEvent* event)
{
    const QPointF at = event->position();
    if (chart()->plotArea().contains(at) && !series_.empty()) {
        const bool pan = event->button() == Qt::MiddleButton ||
                         (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
        if (pan || event->button() == Qt::LeftButton) {
            drag_ = pan ? Drag::Pan : Drag::Zoom;
            pressAt_ = at;
            panFrom0_ = viewX0_;
            panFrom1_ = viewX1_;
            clearHover();
            if (pan) setCursor(Qt::ClosedHandCursor);
            event->accept();
            return;
        }
    }
    ChartViewBase::mousePressEvent(event);
}

void SeriesChart::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF at = event->position();
    const QRectF plot = chart()->plotArea();
    switch (drag_) {
    case Drag::Zoom: {
        // The box spans the plot's height: a zoom picks a range of x, and y follows the data in it.
        const double left = std::clamp(std::min(pressAt_.x(), at.x()), plot.left(), plot.right());
        const double right = std::clamp(std::max(pressAt_.x(), at.x()), plot.left(), plot.right());
        rubber_->setGeometry(QRectF(QPointF(left, plot.top()), QPointF(right, plot.bottom())).toRect());
        rubber_->setVisible(right - left >= 3);
        break;
    }
    case Drag::Pan: {
        const double perPixel = (panFrom1_ - panFrom0_) / std::max(1.0, plot.width());
        const double shift = (pressAt_.x() - at.x()) * perPixel;
        showRange(panFrom0_ + shift, panFrom1_ + shift);
        refreshNow();
        break;
    }
    case Drag::None: hover(at); break;
    }
    ChartViewBase::mouseMoveEvent(event);
}

void SeriesChart::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = drag_;
    drag_ = Drag::None;
    if (drag == Drag::Zoom) {
        rubber_->hide();
        const QRectF plot = chart()->plotArea();
        const double left = std::clamp(std::min(pressAt_.x(), event->position().x()), plot.left(), plot.right());
        const double right = std::clamp(std::max(pressAt_.x(), event->position().x()), plot.left(), plot.right());
        if (right - left >= 5 && !series_.empty()) { // a click is not a zoom
            const QAbstractSeries* any = series_.front().band ? static_cast<QAbstractSeries*>(series_.front().band)
                                                              : series_.front().line;
            const double x0 = chart()->mapToValue(QPointF(left, plot.center().y()), const_cast<QAbstractSeries*>(any)).x();
            const double x1 = chart()->mapToValue(QPointF(right, plot.center().y()), const_cast<QAbstractSeries*>(any)).x();
            showRange(x0, x1);
            refreshNow();
        }
        event->accept();
        return;
    }
    if (drag == Drag::Pan) {
        unsetCursor();
        event->accept();
        return;
    }
    ChartViewBase::mouseReleaseEvent(event);
}

void SeriesChart::leaveEvent(QEvent* event)
{
    clearHover();
    ChartViewBase::leaveEvent(event);
}

QString SeriesChart::hoverTextAt(const QPointF& pos) const
{
    if (!chart()->plotArea().contains(pos) || series_.empty()) return {};
    QAbstractSeries* first = series_.front().band ? static_cast<QAbstractSeries*>(series_.front().band) : series_.front().line;
    const double x = chart()->mapToValue(pos, first).x();
    const QLocale locale;
    QStringList lines;
    double shownX = std::nan("");
    for (const Series& s : series_) {
        if (!s.visible || !s.table || s.table->isEmpty()) continue;
        const std::vector<double>& xs = s.table->xs();
        std::size_t i = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), x) - xs.begin());
        if (i == xs.size() || (i > 0 && x - xs[i - 1] < xs[i] - x)) --i;
        const double y = s.table->value(s.upper, static_cast<qsizetype>(i));
        if (std::isnan(y)) continue;
        if (std::isnan(shownX)) shownX = xs[i];
        const QString name = s.band ? s.band->name() : s.line->name();
        lines << tr("%1: %2").arg(name.isEmpty() ? tr("value") : name, locale.toString(y, 'g', 5));
    }
    if (lines.isEmpty()) return {};
    const QString title = xAxis_->titleText().isEmpty() ? QStringLiteral("x") : xAxis_->titleText();
    QString xText = tr("%1: %2").arg(title, showsClock() ? clockText(clockOrigin_ + shownX, locale) : locale.toString(shownX, 'g', 10));
    if (hoverDetails_)
        if (const QString more = hoverDetails_(shownX); !more.isEmpty()) xText += QStringLiteral(" (") + more + QLatin1Char(')');
    lines.prepend(xText);
    return lines.join(u'\n');
}

void SeriesChart::hover(const QPointF& pos)
{
    hoverText_ = hoverTextAt(pos);
    if (hoverText_.isEmpty()) {
        clearHover();
        return;
    }
    const QRectF plot = chart()->plotArea();
    crosshair_->setLine(pos.x(), plot.top(), pos.x(), plot.bottom());
    crosshair_->show();
    QToolTip::showText(mapToGlobal(pos.toPoint()) + QPoint(14, 14), hoverText_, this);
}

void SeriesChart::clearHover()
{
    hoverText_.clear();
    crosshair_->hide();
    QToolTip::hideText();
}

} // namespace sb::gui
