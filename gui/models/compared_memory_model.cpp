#include "compared_memory_model.hpp"

#include "text/format.hpp"

#include <QColor>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace sb::gui {

using app::ComparedRun;
using app::RankPeak;

ComparedMemoryModel::ComparedMemoryModel(QObject* parent) : ColumnTableModel(parent) {}

void ComparedMemoryModel::setRuns(const QList<ComparedRun>& runs, const QStringList& labels)
{
    beginResetModel();
    runs_ = runs;
    labels_ = labels;
    rows_.clear();
    qsizetype ranks = 0;
    for (const ComparedRun& r : runs_) ranks = std::max(ranks, r.ranks.size());
    for (int rank = 0; rank < ranks; ++rank)
        for (int run = 0; run < runs_.size(); ++run)
            if (rank < runs_[run].ranks.size()) rows_.append(Row{run, rank});
    endResetModel();
}

const RankPeak& ComparedMemoryModel::peakOfRow(int row) const { return runs_[rows_[row].run].ranks[rows_[row].rank]; }

QString ComparedMemoryModel::differenceText(double percent)
{
    return tr("%1%2 %").arg(percent >= 0 ? QStringLiteral("+") : QString(), QLocale().toString(percent, 'f', 1));
}

QString ComparedMemoryModel::measuredText(const RankPeak& peak)
{
    return peak.measured > 0 ? formatBytes(static_cast<std::uint64_t>(peak.measured)) : tr("not reported");
}

QString ComparedMemoryModel::estimatedText(const RankPeak& peak)
{
    return peak.estimated > 0 ? formatBytes(static_cast<std::uint64_t>(peak.estimated)) : tr("no estimate");
}

QVariant ComparedMemoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const RankPeak& p = peakOfRow(index.row());
    const int run = rows_[index.row()].run;
    const auto column = static_cast<Column>(index.column());
    const bool measured = p.measured > 0, estimated = p.estimated > 0;
    const double difference = p.differencePercent();
    if (role == ValueRole) {
        switch (column) {
        case RankColumn: return p.rank;
        case RunColumn: return runs_[run].id;
        case MeasuredColumn: return measured ? QVariant(p.measured) : QVariant();
        case EstimatedColumn: return estimated ? QVariant(p.estimated) : QVariant();
        case DifferenceColumn: return std::isnan(difference) ? QVariant() : QVariant(difference);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case RankColumn: return p.rank;
        case RunColumn: return labels_.value(run);
        case MeasuredColumn: return measuredText(p);
        case EstimatedColumn: return estimatedText(p);
        case DifferenceColumn: return std::isnan(difference) ? QString() : differenceText(difference);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == MeasuredColumn && !measured) return tr("This rank of the run reported no memory");
        if (column == EstimatedColumn && !estimated) return tr("The plan this run recorded does not validate, so it has no estimate");
        if (column == DifferenceColumn && !std::isnan(difference))
            return tr("The measured peak over (+) or under (−) the estimate for this run's plan");
        return {};
    }
    if (role == Qt::ForegroundRole && ((column == MeasuredColumn && !measured) || (column == EstimatedColumn && !estimated)))
        return QColor(Qt::gray);
    if (role == Qt::TextAlignmentRole && column != RunColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QString ComparedMemoryModel::columnTitle(int column) const
{
    switch (static_cast<Column>(column)) {
    case RankColumn: return tr("Rank");
    case RunColumn: return tr("Run");
    case MeasuredColumn: return tr("Peak measured");
    case EstimatedColumn: return tr("Peak estimated");
    case DifferenceColumn: return tr("Difference");
    case ColumnCount: break;
    }
    return {};
}

} // namespace sb::gui
