// The Runs table grouped by one column (a plan field, the status...): the
// rows of each value under a header row that names the value, counts its
// runs and gives their best final loss. Flat, for a QTableView (the view
// spans each header row across the table); the order inside a group is the
// source's (the table's sort), groups are ordered by their value, runs
// without one last. A change of the source's rows (a sort, a filter) or of
// the value grouped by rebuilds it (a model reset): whoever shows it keeps
// its selection of runs across resets. Other changes of data pass through.
#pragma once

#include <QAbstractProxyModel>

namespace sb::gui {

class RunsGroupProxy : public QAbstractProxyModel {
    Q_OBJECT
public:
    enum Role { GroupHeaderRole = Qt::UserRole + 100 }; // true on a header row

    explicit RunsGroupProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* source) override;
    void setGroupColumn(int column); // -1: no groups (every row as in the source)
    int groupColumn() const { return column_; }
    bool isHeader(int row) const { return row >= 0 && row < rows_.size() && rows_[row] < 0; }
    int groupCount() const { return static_cast<int>(groups_.size()); }
    // The source rows of the group whose header is `row`.
    QList<int> sourceRowsOfGroup(int row) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex& proxy) const override;
    QModelIndex mapFromSource(const QModelIndex& source) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    struct Group {
        QVariant value; // invalid: not known
        QList<int> sourceRows;
        double bestLoss;
    };
    void rebuild();
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles);
    QList<Group> collect() const;
    QString headerText(const Group& g) const;

    int column_ = -1;
    QList<Group> groups_;
    QList<int> rows_;        // per row: its source row, or -1 - group for a header
    QList<int> fromSource_;  // per source row: its row here
    QList<QMetaObject::Connection> connections_;
};

} // namespace sb::gui
