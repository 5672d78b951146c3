#include "compared_memory_chart.hpp"

#include "models/compared_memory_model.hpp"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sb::gui {

using app::ComparedRun;
using app::RankPeak;

namespace {

// A run's highest measured peak against its highest estimate (as the Run page's title).
RankPeak highest(const ComparedRun& run)
{
    RankPeak top;
    for (const RankPeak& p : run.ranks) {
        top.measured = std::max(top.measured, p.measured);
        top.estimated = std::max(top.estimated, p.estimated);
    }
    return top;
}

} // namespace

ComparedMemoryChart::ComparedMemoryChart(QWidget* parent)
    : ChartViewBase(parent), bars_(new QBarSeries), xAxis_(new QBarCategoryAxis), yAxis_(new QValueAxis)
{
    QChart* c = chart();
    bars_->setBarWidth(0.8); // a rank's bars together, a gap between ranks
    c->addSeries(bars_);
    c->addAxis(xAxis_, Qt::AlignBottom);
    c->addAxis(yAxis_, Qt::AlignLeft);
    bars_->attachAxis(xAxis_);
    bars_->attachAxis(yAxis_);
    connect(bars_, &QBarSeries::hovered, this, &ComparedMemoryChart::showToolTip);
    setExportName(QStringLiteral("compare-memory-per-rank"));
    retranslate();
}

void ComparedMemoryChart::setRuns(const QList<ComparedRun>& runs, const QStringList& labels, const QList<QColor>& colors)
{
    runs_ = runs;
    labels_ = labels;
    bars_->clear();
    measured_.clear();
    estimated_.clear();
    qint64 top = 0;
    qsizetype ranks = 0;
    for (const ComparedRun& r : runs_) {
        ranks = std::max(ranks, r.ranks.size());
        for (const RankPeak& p : r.ranks) top = std::max({top, p.measured, p.estimated});
    }
    ranks = std::min<qsizetype>(ranks, kMaxRanks);
    unit_ = memoryAxisUnit(top);
    for (qsizetype i = 0; i < runs_.size(); ++i) {
        const ComparedRun& r = runs_[i];
        const QColor color = colors.value(i);
        // One bar set of `member` per rank; nullptr when the run has no such value at all.
        auto barsOf = [&](qint64 RankPeak::*member) -> QBarSet* {
            if (std::none_of(r.ranks.begin(), r.ranks.end(), [member](const RankPeak& p) { return p.*member > 0; })) return nullptr;
            auto* set = new QBarSet(QString());
            for (qsizetype k = 0; k < ranks; ++k) {
                const qint64 bytes = k < r.ranks.size() ? r.ranks[k].*member : -1;
                set->append(bytes > 0 ? static_cast<double>(bytes) / unit_ : 0.0);
            }
            bars_->append(set);
            return set;
        };
        QBarSet* measured = barsOf(&RankPeak::measured);
        if (measured) {
            measured->setColor(color);
            measured->setBorderColor(color);
        }
        QBarSet* estimated = barsOf(&RankPeak::estimated);
        if (estimated) {
            QColor light = color;
            light.setAlpha(70);
            estimated->setColor(light);
            QPen pen(color);
            pen.setStyle(Qt::DashLine);
            estimated->setPen(pen);
        }
        measured_.push_back(measured);
        estimated_.push_back(estimated);
    }
    QStringList categories;
    for (qsizetype k = 0; k < ranks; ++k) categories << QString::number(k);
    xAxis_->clear();
    xAxis_->append(categories);
    setRoundRange(yAxis_, 0, std::max(1.0, static_cast<double>(top) / unit_ * 1.1));
    retranslate();
}

void ComparedMemoryChart::retranslate()
{
    qsizetype ranks = 0;
    for (std::size_t i = 0; i < measured_.size(); ++i) {
        const ComparedRun& r = runs_[static_cast<qsizetype>(i)];
        const QString label = labels_.value(static_cast<qsizetype>(i));
        ranks = std::max(ranks, r.ranks.size());
        const double difference = highest(r).differencePercent();
        if (measured_[i])
            measured_[i]->setLabel(std::isnan(difference) ? tr("%1 measured").arg(label)
                                                          : tr("%1 measured (%2)")
                                                                .arg(label, ComparedMemoryModel::differenceText(difference)));
        if (estimated_[i])
            estimated_[i]->setLabel(measured_[i] ? tr("%1 estimated").arg(label) : tr("%1 estimated; it reported no memory").arg(label));
    }
    // The legend names each run once: its measured bars, or its estimate where it measured nothing.
    for (QLegendMarker* marker : chart()->legend()->markers(bars_)) {
        auto* bar = qobject_cast<QBarLegendMarker*>(marker);
        if (!bar) continue;
        const auto it = std::find(estimated_.begin(), estimated_.end(), bar->barset());
        if (it != estimated_.end()) marker->setVisible(measured_[static_cast<std::size_t>(it - estimated_.begin())] == nullptr);
    }
    QString title = tr("Peak memory per rank: measured (solid) against the estimate for each run's plan (light)");
    if (ranks > kMaxRanks) title += tr(" (first %1 ranks; the table lists all)").arg(kMaxRanks);
    chart()->setTitle(title);
    xAxis_->setTitleText(tr("Rank"));
    yAxis_->setTitleText(isGiB(unit_) ? tr("GiB") : tr("MiB"));
}

void ComparedMemoryChart::showToolTip(bool shown, int rank, QBarSet* set)
{
    if (!shown) {
        QToolTip::hideText();
        return;
    }
    for (std::size_t i = 0; i < measured_.size(); ++i) {
        if (set != measured_[i] && set != estimated_[i]) continue;
        const ComparedRun& r = runs_[static_cast<qsizetype>(i)];
        if (rank >= r.ranks.size()) return;
        const RankPeak& p = r.ranks[rank];
        QStringList lines{tr("%1, rank %2").arg(labels_.value(static_cast<qsizetype>(i))).arg(rank),
                          tr("measured: %1").arg(ComparedMemoryModel::measuredText(p)),
                          tr("estimated: %1").arg(ComparedMemoryModel::estimatedText(p))};
        const double difference = p.differencePercent();
        if (!std::isnan(difference)) lines << tr("difference: %1").arg(ComparedMemoryModel::differenceText(difference));
        const QString text = lines.join(QLatin1Char('\n'));
        QToolTip::showText(QCursor::pos(), text, this);
        return;
    }
}

bool ComparedMemoryChart::hasCsv() const
{
    return std::any_of(runs_.begin(), runs_.end(), [](const ComparedRun& r) { return !r.ranks.isEmpty(); });
}

QByteArray ComparedMemoryChart::csv() const
{
    QByteArray out = "run,rank,measured_peak_bytes,estimated_peak_bytes\n";
    auto num = [](qint64 v) { return v > 0 ? QByteArray::number(v) : QByteArray(); };
    for (const ComparedRun& r : runs_)
        for (const RankPeak& p : r.ranks)
            out += QByteArray::number(r.id) + ',' + QByteArray::number(p.rank) + ',' + num(p.measured) + ',' + num(p.estimated) + '\n';
    return out;
}

} // namespace sb::gui
