#include "rank_chart.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace sb::gui {

RankChart::RankChart(QWidget* parent)
    : ChartViewBase(parent), series_(new QStackedBarSeries), capacity_(new QLineSeries), xAxis_(new QBarCategoryAxis),
      yAxis_(new QValueAxis)
{
    QChart* c = chart();
    for (int i = 0; i < kMemCategories; ++i) {
        auto* set = new QBarSet(categoryLabel(static_cast<MemCategory>(i)));
        set->setColor(categoryColor(static_cast<MemCategory>(i)));
        set->setBorderColor(categoryColor(static_cast<MemCategory>(i)).darker(115));
        sets_[static_cast<std::size_t>(i)] = set;
        series_->append(set);
    }
    series_->setBarWidth(0.6);
    c->addSeries(series_);
    c->addSeries(capacity_);
    c->addAxis(xAxis_, Qt::AlignBottom);
    c->addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(xAxis_);
    series_->attachAxis(yAxis_);
    capacity_->attachAxis(xAxis_);
    capacity_->attachAxis(yAxis_);
    addOverCapacityBand(capacity_, xAxis_, yAxis_);
    c->legend()->setAlignment(Qt::AlignRight);
    connect(series_, &QStackedBarSeries::hovered, this, &RankChart::showTooltip);
    retranslate();
}

void RankChart::clear()
{
    empty_ = true;
    over_ = false;
    yAxis_->setLabelsVisible(false); // no estimate: no made-up scale
    for (QBarSet* s : sets_) s->remove(0, s->count());
    capacity_->clear();
    updateOverCapacityBand(false);
    labels_.clear();
    xAxis_->clear();
    shown_.clear();
    updateTitle();
}

void RankChart::setEstimate(const Estimate& e, const std::vector<RankGroup>& groups)
{
    empty_ = false;
    yAxis_->setLabelsVisible(true);
    ranks_ = static_cast<int>(e.ranks.size());
    groupCount_ = static_cast<int>(groups.size());
    capacityBytes_ = e.capacityBytes;
    worstPeak_ = e.peakBytes();
    over_ = !e.fits();

    // Too many distinct ranks for bars: keep those nearest the capacity.
    std::vector<std::size_t> order(groups.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto peak = [&](std::size_t g) { return e.ranks[static_cast<std::size_t>(groups[g].rank)].peakBytes; };
    if (order.size() > static_cast<std::size_t>(kMaxBars)) {
        std::partial_sort(order.begin(), order.begin() + kMaxBars, order.end(),
                          [&](std::size_t a, std::size_t b) { return peak(a) > peak(b); });
        order.resize(kMaxBars);
        std::sort(order.begin(), order.end());
    }
    shown_.clear();
    shownBytes_.clear();
    shownHost_.clear();
    QStringList labels;
    for (std::size_t g : order) {
        shown_.push_back(groups[g]);
        const RankEstimate& r = e.ranks[static_cast<std::size_t>(groups[g].rank)];
        shownBytes_.push_back(r.atPeak);
        shownHost_.push_back(r.hostBytes);
        labels << rankGroupLabel(groups[g]);
    }
    const int n = static_cast<int>(shown_.size());
    for (int c = 0; c < kMemCategories; ++c) {
        QBarSet* set = sets_[static_cast<std::size_t>(c)];
        QList<qreal> values;
        values.reserve(n);
        for (const MemBreakdown& b : shownBytes_) values << toGiB(b.bytes[static_cast<std::size_t>(c)]);
        if (set->count() == n) {
            for (int i = 0; i < n; ++i)
                if (set->at(i) != values[i]) set->replace(i, values[i]);
        } else {
            set->remove(0, set->count());
            set->append(values);
        }
    }
    if (labels != labels_) {
        labels_ = labels;
        xAxis_->setCategories(labels_);
    }
    // The axis follows the data, so a plan far below its device still shows its
    // bars; the capacity line (and the band above it) joins once the peak
    // comes within half of it.
    const double cap = toGiB(capacityBytes_);
    const double worst = toGiB(worstPeak_);
    capacity_->setVisible(capacityShown());
    setRoundRange(yAxis_, 0, std::max(capacityShown() ? std::max(worst, cap) : worst, 1e-6) * 1.08);
    capacity_->replace(QList<QPointF>{{-0.5, cap}, {n - 0.5, cap}});
    QPen pen(over_ ? overCapacityColor() : capacityColor());
    pen.setWidthF(over_ ? 2.5 : 1.5);
    pen.setStyle(Qt::DashLine);
    capacity_->setPen(pen);
    updateOverCapacityBand(over_);
    updateTitle();
}

double RankChart::axisTopGiB() const { return yAxis_->max(); }

void RankChart::updateTitle()
{
    QChart* c = chart();
    if (empty_) {
        c->setTitle(tr("Peak memory per rank"));
        c->setTitleBrush(QBrush(capacityColor()));
        return;
    }
    QString title = tr("Peak memory per rank: %n rank(s)", nullptr, ranks_);
    if (groupCount_ > 1) title += tr(" in %n group(s) of identical ranks", nullptr, groupCount_);
    if (groupCount_ > kMaxBars) title += tr(" (the %1 highest shown)").arg(kMaxBars);
    if (over_) title = tr("OVER CAPACITY by %1").arg(formatGiB(toGiB(worstPeak_ - capacityBytes_))) + QStringLiteral(" — ") + title;
    c->setTitle(title);
    c->setTitleBrush(QBrush(over_ ? overCapacityColor() : capacityColor()));
}

void RankChart::retranslate()
{
    for (int i = 0; i < kMemCategories; ++i) sets_[static_cast<std::size_t>(i)]->setLabel(categoryLabel(static_cast<MemCategory>(i)));
    capacity_->setName(tr("Capacity"));
    yAxis_->setTitleText(tr("GiB"));
    xAxis_->setTitleText(tr("Ranks"));
    if (!shown_.empty()) {
        labels_.clear();
        for (const RankGroup& g : shown_) labels_ << rankGroupLabel(g);
        xAxis_->setCategories(labels_);
    }
    updateTitle();
}

void RankChart::showTooltip(bool status, int index, QBarSet* set)
{
    if (!status || index < 0 || index >= static_cast<int>(shown_.size())) {
        QToolTip::hideText();
        return;
    }
    const int c = static_cast<int>(std::find(sets_.begin(), sets_.end(), set) - sets_.begin());
    const MemBreakdown& b = shownBytes_[static_cast<std::size_t>(index)];
    QString text = tr("Ranks %1 (%n rank(s))", nullptr, shown_[static_cast<std::size_t>(index)].count)
                       .arg(rankGroupLabel(shown_[static_cast<std::size_t>(index)], 6));
    if (c < kMemCategories) {
        const MemCategory cat = static_cast<MemCategory>(c);
        text += u'\n' + tr("%1: %2").arg(categoryLabel(cat), formatBytes(b.bytes[static_cast<std::size_t>(c)]));
        text += u'\n' + categoryDescription(cat);
    }
    text += u'\n' + tr("Peak: %1 of %2").arg(formatBytes(b.total()), formatBytes(capacityBytes_));
    if (shownHost_[static_cast<std::size_t>(index)] > 0)
        text += u'\n' + tr("Offloaded to host: %1").arg(formatBytes(shownHost_[static_cast<std::size_t>(index)]));
    QToolTip::showText(QCursor::pos(), text, this);
}

} // namespace sb::gui
