#include "runs_group_proxy.hpp"

#include "runs_model.hpp"

#include "text/run_text.hpp"

#include <QFont>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::gui {

RunsGroupProxy::RunsGroupProxy(QObject* parent) : QAbstractProxyModel(parent) {}

void RunsGroupProxy::setSourceModel(QAbstractItemModel* source)
{
    for (const QMetaObject::Connection& c : connections_) disconnect(c);
    connections_.clear();
    beginResetModel();
    QAbstractProxyModel::setSourceModel(source);
    if (source) {
        connections_ << connect(source, &QAbstractItemModel::modelReset, this, &RunsGroupProxy::rebuild);
        connections_ << connect(source, &QAbstractItemModel::layoutChanged, this, &RunsGroupProxy::rebuild);
        connections_ << connect(source, &QAbstractItemModel::rowsInserted, this, &RunsGroupProxy::rebuild);
        connections_ << connect(source, &QAbstractItemModel::rowsRemoved, this, &RunsGroupProxy::rebuild);
        connections_ << connect(source, &QAbstractItemModel::dataChanged, this, &RunsGroupProxy::sourceDataChanged);
        connections_ << connect(source, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    column_ = std::min(column_, source ? source->columnCount() - 1 : -1);
    endResetModel();
    rebuild();
}

void RunsGroupProxy::setGroupColumn(int column)
{
    if (column == column_) return;
    column_ = column;
    rebuild();
}

QList<RunsGroupProxy::Group> RunsGroupProxy::collect() const
{
    QList<Group> groups;
    // Each value's group found by a key (a double by all its digits), not by a
    // scan of the groups: a sweep of thousands of runs, each its own value, stays linear.
    QHash<QString, qsizetype> byKey;
    qsizetype unknown = -1;
    const QAbstractItemModel* m = sourceModel();
    for (int row = 0; row < m->rowCount(); ++row) {
        const QVariant value = column_ >= 0 ? m->index(row, column_).data(RunsModel::ValueRole) : QVariant(0);
        qsizetype* at = &unknown;
        if (value.isValid()) {
            const QString key = value.typeId() == QMetaType::Double ? QString::number(value.toDouble(), 'g', 17) : value.toString();
            auto found = byKey.find(key);
            if (found == byKey.end()) found = byKey.insert(key, -1);
            at = &found.value();
        }
        if (*at < 0) {
            *at = groups.size();
            groups << Group{value, {}, std::numeric_limits<double>::infinity()};
        }
        Group& g = groups[*at];
        g.sourceRows << row;
        const QVariant loss = m->index(row, RunsModel::LossColumn).data(RunsModel::ValueRole);
        if (loss.isValid()) g.bestLoss = std::min(g.bestLoss, loss.toDouble());
    }
    const bool numeric = RunsModel::isNumeric(column_);
    std::stable_sort(groups.begin(), groups.end(), [numeric](const Group& a, const Group& b) {
        if (a.value.isValid() != b.value.isValid()) return a.value.isValid();
        if (numeric) return a.value.toDouble() < b.value.toDouble();
        return a.value.toString().localeAwareCompare(b.value.toString()) < 0;
    });
    return groups;
}

void RunsGroupProxy::rebuild()
{
    beginResetModel();
    groups_.clear();
    rows_.clear();
    fromSource_.clear();
    if (QAbstractItemModel* m = sourceModel()) {
        fromSource_.fill(-1, m->rowCount());
        if (column_ < 0) {
            for (int row = 0; row < m->rowCount(); ++row) rows_ << row;
        } else {
            groups_ = collect();
            for (int g = 0; g < groups_.size(); ++g) {
                rows_ << -1 - g;
                for (int row : groups_[g].sourceRows) rows_ << row;
            }
        }
        for (int row = 0; row < rows_.size(); ++row)
            if (rows_[row] >= 0) fromSource_[rows_[row]] = row;
    }
    endResetModel();
}

void RunsGroupProxy::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles)
{
    // A change of the value grouped by, or of the loss a header names, moves rows; any other is passed on.
    auto touches = [&](int column) { return topLeft.column() <= column && column <= bottomRight.column(); };
    if (column_ >= 0 && (touches(column_) || touches(RunsModel::LossColumn))) {
        rebuild();
        return;
    }
    if (!rows_.isEmpty()) Q_EMIT dataChanged(index(0, topLeft.column()), index(static_cast<int>(rows_.size()) - 1, bottomRight.column()), roles);
}

QList<int> RunsGroupProxy::sourceRowsOfGroup(int row) const
{
    return isHeader(row) ? groups_[-1 - rows_[row]].sourceRows : QList<int>{};
}

QModelIndex RunsGroupProxy::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || row >= rows_.size() || column < 0 || column >= columnCount()) return {};
    return createIndex(row, column);
}

QModelIndex RunsGroupProxy::parent(const QModelIndex&) const { return {}; }

int RunsGroupProxy::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int RunsGroupProxy::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

QModelIndex RunsGroupProxy::mapToSource(const QModelIndex& proxy) const
{
    if (!proxy.isValid() || !sourceModel() || proxy.row() >= rows_.size() || rows_[proxy.row()] < 0) return {};
    return sourceModel()->index(rows_[proxy.row()], proxy.column());
}

QModelIndex RunsGroupProxy::mapFromSource(const QModelIndex& source) const
{
    if (!source.isValid() || source.row() >= fromSource_.size() || fromSource_[source.row()] < 0) return {};
    return createIndex(fromSource_[source.row()], source.column());
}

QString RunsGroupProxy::headerText(const Group& g) const
{
    const QString title = sourceModel()->headerData(column_, Qt::Horizontal).toString();
    QString value = tr("not known");
    if (g.value.isValid()) // the text the column shows for its first run
        value = sourceModel()->index(g.sourceRows.front(), column_).data().toString();
    const int count = static_cast<int>(g.sourceRows.size());
    QString text = tr("%1: %2 — %n run(s)", nullptr, count).arg(title, value);
    if (std::isfinite(g.bestLoss)) text += tr(", best final loss %1").arg(lossText(g.bestLoss));
    return text;
}

QVariant RunsGroupProxy::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    if (rows_[index.row()] >= 0) return QAbstractProxyModel::data(index, role);
    if (role == GroupHeaderRole) return true;
    if (role == Qt::DisplayRole && index.column() == 0) return headerText(groups_[-1 - rows_[index.row()]]);
    if (role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant RunsGroupProxy::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && sourceModel()) return sourceModel()->headerData(section, orientation, role);
    return {};
}

Qt::ItemFlags RunsGroupProxy::flags(const QModelIndex& index) const
{
    if (isHeader(index.row())) return Qt::ItemIsEnabled;
    return QAbstractProxyModel::flags(index);
}

void RunsGroupProxy::sort(int column, Qt::SortOrder order)
{
    if (sourceModel()) sourceModel()->sort(column, order);
}

} // namespace sb::gui
