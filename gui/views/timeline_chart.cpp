#include "timeline_chart.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace sb::gui {

TimelineChart::TimelineChart(QWidget* parent)
    : ChartViewBase(parent), capacity_(new QLineSeries), peak_(new QScatterSeries), xAxis_(new QCategoryAxis),
      yAxis_(new QValueAxis)
{
    QChart* c = chart();
    c->addAxis(xAxis_, Qt::AlignBottom);
    c->addAxis(yAxis_, Qt::AlignLeft);
    QLineSeries* lower = nullptr;
    for (int i = 0; i < kMemCategories; ++i) {
        const MemCategory cat = static_cast<MemCategory>(i);
        // Each band sits on the one below it: its lower line is the previous
        // band's upper line. Areas do not own their lines; this view does.
        auto* upper = new QLineSeries(this);
        auto* area = new QAreaSeries(upper, lower);
        area->setColor(categoryColor(cat));
        area->setPen(Qt::NoPen); // stroking 9 outlines of ~400 points costs more than filling them
        area->setName(categoryLabel(cat));
        c->addSeries(area);
        area->attachAxis(xAxis_);
        area->attachAxis(yAxis_);
        connect(area, &QAreaSeries::hovered, this, &TimelineChart::showTooltip);
        areas_[static_cast<std::size_t>(i)] = area;
        uppers_[static_cast<std::size_t>(i)] = upper;
        lower = upper;
    }
    c->addSeries(capacity_);
    capacity_->attachAxis(xAxis_);
    capacity_->attachAxis(yAxis_);
    addOverCapacityBand(capacity_, xAxis_, yAxis_);
    c->legend()->setAlignment(Qt::AlignRight); // in its own tab: its colours read as the per-rank chart's
    c->addSeries(peak_);
    for (QLegendMarker* m : c->legend()->markers(peak_)) m->setVisible(false);
    peak_->attachAxis(xAxis_);
    peak_->attachAxis(yAxis_);
    peak_->setMarkerSize(9);
    peak_->setColor(Qt::black);
    peak_->setPointLabelsVisible(true);
    peak_->setPointLabelsClipping(false);
    xAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    retranslate();
}

QString TimelineChart::pointLabel(const TimelinePoint& p)
{
    // The core's label is "<phase> <module>"; keep the module, translate the phase.
    const std::string& l = p.label;
    const std::size_t space = l.find(' ');
    const QString unit = space == std::string::npos ? QString() : QString::fromStdString(l.substr(space + 1));
    const QString name = unit == u"root" ? tr("root") : unit;
    switch (p.phase) {
    case StepPhase::Start: return tr("start of step");
    case StepPhase::PreForward: return tr("pre-forward %1").arg(name);
    case StepPhase::PostForward: return tr("post-forward %1").arg(name);
    case StepPhase::Loss: return tr("loss");
    case StepPhase::PreBackward: return tr("pre-backward %1").arg(name);
    case StepPhase::Backward: return p.unit < 0 ? tr("loss backward") : tr("backward %1").arg(name);
    case StepPhase::PostBackward: return tr("post-backward %1").arg(name);
    case StepPhase::Optimizer: return tr("optimizer step");
    }
    return QString::fromStdString(l);
}

void TimelineChart::clear()
{
    yAxis_->setLabelsVisible(false); // no estimate: no made-up scale
    points_.clear();
    for (QLineSeries* s : uppers_) s->clear();
    capacity_->clear();
    updateOverCapacityBand(false);
    peak_->clear();
    updateAxes();
}

void TimelineChart::setEstimate(const Estimate& e)
{
    yAxis_->setLabelsVisible(true);
    points_ = e.timeline;
    capacityBytes_ = e.capacityBytes;
    worstRank_ = e.worstRank;
    over_ = !e.fits();
    const int n = static_cast<int>(points_.size());
    lossIndex_ = 0;
    peakIndex_ = 0;
    std::uint64_t peak = 0;
    for (int i = 0; i < n; ++i) {
        const TimelinePoint& p = points_[static_cast<std::size_t>(i)];
        if (p.phase == StepPhase::Loss) lossIndex_ = i;
        if (p.memory.total() > peak) {
            peak = p.memory.total();
            peakIndex_ = i;
        }
    }
    // Axes first: a range change re-lays out every series, so do it once, before the points.
    const double cap = toGiB(capacityBytes_);
    const double top = std::max(toGiB(peak), cap) * 1.08;
    if (top > yAxis_->max() || top < yAxis_->max() * 0.7 || yAxis_->max() <= 0) {
        setRoundRange(yAxis_, 0, top);
    }
    updateAxes();
    std::vector<double> base(static_cast<std::size_t>(n), 0.0);
    QList<QPointF> line(n);
    for (int c = 0; c < kMemCategories; ++c) {
        for (int i = 0; i < n; ++i) {
            base[static_cast<std::size_t>(i)] += toGiB(points_[static_cast<std::size_t>(i)].memory.bytes[static_cast<std::size_t>(c)]);
            line[i] = QPointF(i, base[static_cast<std::size_t>(i)]);
        }
        if (uppers_[static_cast<std::size_t>(c)]->points() != line) uppers_[static_cast<std::size_t>(c)]->replace(line);
    }
    capacity_->replace(QList<QPointF>{{0, cap}, {std::max(1, n - 1) * 1.0, cap}});
    QPen pen(over_ ? overCapacityColor() : capacityColor());
    pen.setWidthF(over_ ? 2.5 : 1.5);
    pen.setStyle(Qt::DashLine);
    capacity_->setPen(pen);
    updateOverCapacityBand(over_);
    peak_->replace(QList<QPointF>{{static_cast<double>(peakIndex_), toGiB(peak)}});
    peak_->setPointLabelsFormat(tr("peak %1").arg(formatGiB(toGiB(peak), 1)));
}

void TimelineChart::updateAxes()
{
    const int n = static_cast<int>(points_.size());
    if (n < 2) {
        for (const QString& l : xAxis_->categoriesLabels()) xAxis_->remove(l);
        chart()->setTitle(tr("Memory through one step"));
        return;
    }
    const QStringList labels{tr("forward"), tr("backward"), tr("opt.")};
    const double ends[] = {static_cast<double>(lossIndex_), n - 1.5, n - 1.0};
    bool same = xAxis_->categoriesLabels() == labels && xAxis_->max() == n - 1;
    for (int i = 0; same && i < 3; ++i) same = xAxis_->endValue(labels[i]) == ends[i];
    if (!same) {
        for (const QString& l : xAxis_->categoriesLabels()) xAxis_->remove(l);
        xAxis_->setRange(0, n - 1);
        xAxis_->setStartValue(0);
        for (int i = 0; i < 3; ++i) xAxis_->append(labels[i], ends[i]);
    }
    QString title = tr("Memory through one step on rank %1 (%n point(s))", nullptr, n).arg(worstRank_);
    if (over_) title = tr("OVER CAPACITY at the peak: %1").arg(pointLabel(points_[static_cast<std::size_t>(peakIndex_)])) + QStringLiteral(" — ") + title;
    if (chart()->title() != title) chart()->setTitle(title);
    const QBrush brush(over_ ? overCapacityColor() : capacityColor());
    if (chart()->titleBrush() != brush) chart()->setTitleBrush(brush);
}

void TimelineChart::retranslate()
{
    for (int i = 0; i < kMemCategories; ++i) areas_[static_cast<std::size_t>(i)]->setName(categoryLabel(static_cast<MemCategory>(i)));
    capacity_->setName(tr("Capacity"));
    yAxis_->setTitleText(tr("GiB"));
    if (!points_.empty()) {
        std::uint64_t peak = points_[static_cast<std::size_t>(peakIndex_)].memory.total();
        peak_->setPointLabelsFormat(tr("peak %1").arg(formatGiB(toGiB(peak), 1)));
    }
    updateAxes();
}

void TimelineChart::showTooltip(const QPointF& point, bool state)
{
    const int i = qRound(point.x());
    if (!state || i < 0 || i >= static_cast<int>(points_.size())) {
        QToolTip::hideText();
        return;
    }
    const TimelinePoint& p = points_[static_cast<std::size_t>(i)];
    QString text = pointLabel(p) + u'\n' + tr("Total: %1").arg(formatBytes(p.memory.total()));
    for (int c = kMemCategories - 1; c >= 0; --c) {
        const std::uint64_t b = p.memory.bytes[static_cast<std::size_t>(c)];
        if (b > 0) text += u'\n' + tr("%1: %2").arg(categoryLabel(static_cast<MemCategory>(c)), formatBytes(b));
    }
    QToolTip::showText(QCursor::pos(), text, this);
}

} // namespace sb::gui
