#include "runs_model.hpp"

#include "text/format.hpp"
#include "text/run_text.hpp"

#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace sb::gui {

using app::RunDetails;

namespace {
double nowSeconds() { return QDateTime::currentMSecsSinceEpoch() / 1000.0; }
} // namespace

RunsModel::RunsModel(QObject* parent) : ColumnTableModel(parent) {}

void RunsModel::setRuns(const QList<store::RunRow>& runs)
{
    beginResetModel();
    runs_ = runs;
    abandoned_.clear();
    rowOf_.clear();
    QHash<qint64, RunDetails> kept;
    for (int i = 0; i < runs_.size(); ++i) {
        abandoned_ << runs_[i].isAbandoned();
        rowOf_.insert(runs_[i].id, i);
        // A finished run's details do not change; a running one's are read again.
        const auto it = details_.find(runs_[i].id);
        if (it != details_.end() && it->finalStatus) kept.insert(it.key(), it.value());
    }
    details_ = kept;
    endResetModel();
}

void RunsModel::addDetails(const QHash<qint64, RunDetails>& details)
{
    int first = rowCount(), last = -1;
    for (auto it = details.begin(); it != details.end(); ++it) {
        const auto row = rowOf_.find(it.key());
        if (row == rowOf_.end()) continue;
        details_.insert(it.key(), it.value());
        first = std::min(first, *row);
        last = std::max(last, *row);
    }
    if (last >= first) Q_EMIT dataChanged(index(first, PlanColumn), index(last, PeakColumn));
}

int RunsModel::rowOfRun(qint64 id) const { return rowOf_.value(id, -1); }

QSet<qint64> RunsModel::runsWithDetails() const
{
    QSet<qint64> out;
    for (auto it = details_.begin(); it != details_.end(); ++it)
        if (it->finalStatus) out.insert(it.key());
    return out;
}

bool RunsModel::isAttachable(qint64 id) const
{
    const int row = rowOfRun(id);
    if (row < 0) return false;
    const store::RunRow& r = runs_[row];
    const auto status = store::parseStatus(r.status);
    return r.isDetached() && r.runDir != QStringLiteral("-") && status && !store::isFinal(*status);
}

void RunsModel::setAttachedRun(qint64 id)
{
    if (id == attachedRun_) return;
    const int before = rowOfRun(attachedRun_);
    attachedRun_ = id;
    for (int row : {before, rowOfRun(id)})
        if (row >= 0) Q_EMIT dataChanged(index(row, StatusColumn), index(row, StatusColumn));
}

QVariant RunsModel::display(int row, Column column) const
{
    const store::RunRow& r = runs_[row];
    const auto d = details_.find(r.id);
    const bool has = d != details_.end();
    switch (column) {
    case IdColumn: return r.id;
    case NameColumn: return r.name;
    case TagsColumn: return r.tags.join(QStringLiteral(", "));
    case StatusColumn: return runStatusText(r.status, abandoned_[row], r.isDetached(), r.id == attachedRun_);
    case ReasonColumn: return runReasonText(r);
    case WorldColumn: return r.worldSize;
    case PlanColumn: return has ? planSummaryText(d->preset, d->units, d->nodes, d->procsPerNode, d->replicate) : QString();
    case StartColumn: return timeText(std::isnan(r.startedAt) ? r.createdAt : r.startedAt);
    case DurationColumn: return durationText(sortValue(row, DurationColumn).toDouble());
    case LossColumn: return lossText(r.finalLoss);
    case RateColumn: return has ? rateText(d->tokensPerS) : QString();
    case PeakColumn:
        if (!has || d->peakMax < 0) return {};
        return tr("%1 (rank %2)").arg(formatBytes(static_cast<std::uint64_t>(d->peakMax))).arg(d->peakRank);
    case EvalLossColumn: return has ? lossText(d->evalLoss) : QString();
    case ColumnCount: break;
    default: return has ? fieldText(*d, column) : QVariant();
    }
    return {};
}

QVariant RunsModel::sortValue(int row, Column column) const
{
    const store::RunRow& r = runs_[row];
    const auto d = details_.find(r.id);
    const bool has = d != details_.end();
    switch (column) {
    case IdColumn: return r.id;
    case WorldColumn: return r.worldSize;
    case StartColumn: return std::isnan(r.startedAt) ? r.createdAt : r.startedAt;
    case DurationColumn: {
        if (std::isnan(r.startedAt)) return -1.0;
        const bool live = !abandoned_[row] && (r.status == QLatin1String("running") || r.status == QLatin1String("starting"));
        const double end = std::isnan(r.endedAt) ? (live ? nowSeconds() : r.startedAt) : r.endedAt;
        return end - r.startedAt;
    }
    case LossColumn: return std::isnan(r.finalLoss) ? 1e300 : r.finalLoss;
    case RateColumn: return has && !std::isnan(d->tokensPerS) ? d->tokensPerS : -1.0;
    case PeakColumn: return has ? d->peakMax : -1;
    case EvalLossColumn: return has && !std::isnan(d->evalLoss) ? d->evalLoss : 1e300;
    case MicroBatchColumn:
    case GlobalBatchColumn:
    case LrColumn: return has && d->fields.read ? fieldValue(*d, column) : QVariant(-1.0);
    default: return display(row, column);
    }
}

QVariant RunsModel::value(int row, Column column) const
{
    if (!isNumeric(column)) {
        const QString text = display(row, column).toString();
        return text.isEmpty() ? QVariant() : QVariant(text);
    }
    const store::RunRow& r = runs_[row];
    const auto d = details_.find(r.id);
    const bool has = d != details_.end();
    auto number = [](double v) { return std::isfinite(v) ? QVariant(v) : QVariant(); };
    switch (column) {
    case LossColumn: return number(r.finalLoss);
    case EvalLossColumn: return has ? number(d->evalLoss) : QVariant();
    case RateColumn: return has ? number(d->tokensPerS) : QVariant();
    case PeakColumn: return has && d->peakMax >= 0 ? QVariant(static_cast<double>(d->peakMax)) : QVariant();
    case MicroBatchColumn:
    case GlobalBatchColumn:
    case LrColumn: return has && d->fields.read ? fieldValue(*d, column) : QVariant();
    case DurationColumn: {
        const double seconds = sortValue(row, column).toDouble();
        return seconds >= 0 ? QVariant(seconds) : QVariant();
    }
    default: return number(sortValue(row, column).toDouble());
    }
}

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const int row = index.row();
    const auto column = static_cast<Column>(index.column());
    const store::RunRow& r = runs_[row];
    switch (role) {
    case Qt::DisplayRole: return display(row, column);
    case SortRole: return sortValue(row, column);
    case RunIdRole: return r.id;
    case StatusRole: return r.status;
    case StatusColorRole: return runStatusColor(r.status, abandoned_[row]);
    case ValueRole: return value(row, column);
    case Qt::TextAlignmentRole:
        if (isNumeric(column) && column != StartColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole: {
        if (column == ReasonColumn && !r.reason.isEmpty()) return runReasonText(r);
        if (column == PeakColumn) {
            const auto d = details_.find(r.id);
            if (d == details_.end()) return {};
            QStringList lines;
            for (int rank = 0; rank < d->peakPerRank.size(); ++rank)
                if (d->peakPerRank[rank] >= 0)
                    lines << tr("rank %1: %2").arg(rank).arg(formatBytes(static_cast<std::uint64_t>(d->peakPerRank[rank])));
            return lines.join(u'\n');
        }
        if (column == NameColumn || column == IdColumn) {
            QString tip = tr("Run %1 (%2)").arg(r.id).arg(r.uid);
            if (r.parentRun >= 0) tip += u'\n' + tr("Resumed from run %1: %2").arg(r.parentRun).arg(r.resumedFrom);
            if (!r.notes.isEmpty()) tip += QStringLiteral("\n\n") + r.notes;
            return tip;
        }
        return {};
    }
    default: return {};
    }
}

} // namespace sb::gui
