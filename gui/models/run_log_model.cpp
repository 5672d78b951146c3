#include "run_log_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

namespace sb::gui {

RunLogModel::RunLogModel(QObject* parent) : QAbstractListModel(parent)
{
    flushTimer_.setSingleShot(true);
    flushTimer_.setInterval(50);
    connect(&flushTimer_, &QTimer::timeout, this, &RunLogModel::flush);
}

void RunLogModel::clear()
{
    beginResetModel();
    lines_.clear();
    queued_.clear();
    endResetModel();
}

void RunLogModel::append(int rank, Stream stream, int attempt, const QString& text)
{
    queued_.push_back(Line{rank, stream, attempt, text});
    if (!flushTimer_.isActive()) flushTimer_.start();
}

void RunLogModel::flush()
{
    flushTimer_.stop();
    if (queued_.empty()) return;
    // Drop what would be cut right away, then make room.
    while (queued_.size() > static_cast<std::size_t>(kMaxLines)) queued_.pop_front();
    const std::size_t overflow = lines_.size() + queued_.size() > static_cast<std::size_t>(kMaxLines)
                                     ? lines_.size() + queued_.size() - static_cast<std::size_t>(kMaxLines)
                                     : 0;
    if (overflow > 0) {
        beginRemoveRows({}, 0, static_cast<int>(overflow) - 1);
        lines_.erase(lines_.begin(), lines_.begin() + static_cast<std::ptrdiff_t>(overflow));
        endRemoveRows();
    }
    const int first = static_cast<int>(lines_.size());
    beginInsertRows({}, first, first + static_cast<int>(queued_.size()) - 1);
    for (Line& l : queued_) lines_.push_back(std::move(l));
    queued_.clear();
    endInsertRows();
}

int RunLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(lines_.size());
}

QVariant RunLogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Line& l = lines_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return l.text;
    case Qt::ForegroundRole:
        if (l.stream == Launcher) return QBrush(QColor(0x1f, 0x5f, 0xa8));
        if (l.stream == Stderr) return QBrush(QColor(0x55, 0x55, 0x55));
        return {};
    case Qt::FontRole: return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case RankRole: return l.rank;
    case StreamRole: return static_cast<int>(l.stream);
    case AttemptRole: return l.attempt;
    default: return {};
    }
}

LogFilterProxy::LogFilterProxy(int rank, QObject* parent) : QSortFilterProxyModel(parent), rank_(rank) {}

void LogFilterProxy::setText(const QString& text)
{
    if (text == text_) return;
    text_ = text;
    invalidateFilter();
}

bool LogFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const auto* log = static_cast<const RunLogModel*>(sourceModel());
    if (rank_ != kAllRanks && log->rank(sourceRow) != rank_) return false;
    return text_.isEmpty() || log->text(sourceRow).contains(text_, Qt::CaseInsensitive);
}

} // namespace sb::gui
