#include "column_table_model.hpp"

namespace sb::gui {

int ColumnTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows(); }

int ColumnTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : columns(); }

QVariant ColumnTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
        section >= columns())
        return {};
    return columnTitle(section);
}

void ColumnTableModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, columns() - 1);
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columns() - 1));
}

} // namespace sb::gui
