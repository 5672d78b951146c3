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

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

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

int RunsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(runs_.size()); }

int RunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

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
    case ColumnCount: break;
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
    default: return display(row, column);
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
    case Qt::TextAlignmentRole:
        if (column == IdColumn || column == WorldColumn || column == LossColumn || column == RateColumn ||
            column == DurationColumn || column == PeakColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
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

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (static_cast<Column>(section)) {
    case IdColumn: return tr("Run");
    case NameColumn: return tr("Name");
    case TagsColumn: return tr("Tags");
    case StatusColumn: return tr("Status");
    case ReasonColumn: return tr("Reason");
    case WorldColumn: return tr("World size");
    case PlanColumn: return tr("Plan");
    case StartColumn: return tr("Started");
    case DurationColumn: return tr("Duration");
    case LossColumn: return tr("Final loss");
    case RateColumn: return tr("Tokens/s");
    case PeakColumn: return tr("Peak memory per rank");
    case ColumnCount: break;
    }
    return {};
}

void RunsModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

RunsFilterProxy::RunsFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RunsModel::SortRole);
    setDynamicSortFilter(true);
}

void RunsFilterProxy::setText(const QString& text)
{
    if (text == text_) return;
    text_ = text;
    invalidateFilter();
}

void RunsFilterProxy::setStatus(const QString& storedStatus)
{
    if (storedStatus == status_) return;
    status_ = storedStatus;
    invalidateFilter();
}

bool RunsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const QAbstractItemModel* m = sourceModel();
    if (!status_.isEmpty() && m->index(sourceRow, 0).data(RunsModel::StatusRole).toString() != status_) return false;
    if (text_.isEmpty()) return true;
    for (int c : {RunsModel::IdColumn, RunsModel::NameColumn, RunsModel::TagsColumn, RunsModel::StatusColumn,
                  RunsModel::ReasonColumn, RunsModel::PlanColumn})
        if (m->index(sourceRow, c).data().toString().contains(text_, Qt::CaseInsensitive)) return true;
    // The notes too: they are the name's tooltip.
    return m->index(sourceRow, RunsModel::NameColumn).data(Qt::ToolTipRole).toString().contains(text_, Qt::CaseInsensitive);
}

} // namespace sb::gui
