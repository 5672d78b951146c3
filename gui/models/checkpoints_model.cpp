#include "checkpoints_model.hpp"

#include "text/format.hpp"
#include "text/run_text.hpp"

namespace sb::gui {

using app::CheckpointEntry;

CheckpointsModel::CheckpointsModel(QObject* parent) : ColumnTableModel(parent) {}

void CheckpointsModel::applyVerification(CheckpointEntry& e) const
{
    const auto it = verified_.find(e.path);
    if (it == verified_.end() || e.status == CheckpointEntry::Missing || e.status == CheckpointEntry::Failed) return;
    e.status = it->error.isEmpty() ? CheckpointEntry::Verified : CheckpointEntry::Corrupt;
    if (!it->error.isEmpty()) e.message = it->error;
}

void CheckpointsModel::setCheckpoints(qint64 runId, const QList<CheckpointEntry>& entries)
{
    beginResetModel();
    runId_ = runId;
    entries_ = entries;
    for (CheckpointEntry& e : entries_) applyVerification(e);
    endResetModel();
}

int CheckpointsModel::rowOfPath(const QString& path) const
{
    for (int i = 0; i < entries_.size(); ++i)
        if (entries_[i].path == path) return i;
    return -1;
}

void CheckpointsModel::setVerified(const QString& path, const QString& error)
{
    verified_[path] = Verification{error};
    const int row = rowOfPath(path);
    if (row < 0) return;
    applyVerification(entries_[row]);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

QString CheckpointsModel::statusText(CheckpointEntry::Status status)
{
    switch (status) {
    case CheckpointEntry::Complete: return tr("complete");
    case CheckpointEntry::Failed: return tr("failed");
    case CheckpointEntry::Missing: return tr("deleted");
    case CheckpointEntry::Verified: return tr("verified");
    case CheckpointEntry::Corrupt: return tr("corrupt");
    }
    return {};
}

QVariant CheckpointsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const CheckpointEntry& e = entries_[index.row()];
    const auto column = static_cast<Column>(index.column());
    if (role == StatusColorRole) {
        switch (e.status) {
        case CheckpointEntry::Verified: return QColor(0x2e, 0x8b, 0x3e);
        case CheckpointEntry::Complete: return QColor(0x1f, 0x6f, 0xc5);
        case CheckpointEntry::Corrupt:
        case CheckpointEntry::Failed: return QColor(0xc6, 0x28, 0x28);
        case CheckpointEntry::Missing: return QColor(Qt::gray);
        }
    }
    if (role == Qt::ToolTipRole) {
        if (column == StatusColumn && !e.message.isEmpty()) return e.message;
        if (column == PathColumn) return e.path;
        if (!e.reported) return tr("Found on disk; the run did not report it");
        return {};
    }
    if (role == Qt::TextAlignmentRole && (column == StepColumn || column == SizeColumn || column == WorldColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (column) {
        case StepColumn: return e.step;
        case TimeColumn: return e.time;
        case SizeColumn: return e.bytes;
        case WorldColumn: return e.worldSize;
        default: break;
        }
    } else if (role != Qt::DisplayRole) {
        return {};
    }
    switch (column) {
    case StepColumn: return e.step;
    case TimeColumn: return timeText(e.time);
    case SizeColumn: return e.bytes >= 0 ? formatBytes(static_cast<std::uint64_t>(e.bytes)) : QString();
    case WorldColumn: return e.worldSize > 0 ? QVariant(e.worldSize) : QVariant();
    case KindColumn:
        if (e.kind == QLatin1String("full")) return tr("full (.safetensors)");
        return e.kind == QLatin1String("dcp") ? tr("DCP (PyTorch)") : tr("sharded");
    case StatusColumn: return statusText(e.status);
    case PathColumn: return e.path;
    case ColumnCount: break;
    }
    return {};
}

QString CheckpointsModel::columnTitle(int column) const
{
    switch (static_cast<Column>(column)) {
    case StepColumn: return tr("Step");
    case TimeColumn: return tr("Saved");
    case SizeColumn: return tr("Size");
    case WorldColumn: return tr("World size");
    case KindColumn: return tr("Kind");
    case StatusColumn: return tr("Status");
    case PathColumn: return tr("Folder");
    case ColumnCount: break;
    }
    return {};
}

} // namespace sb::gui
