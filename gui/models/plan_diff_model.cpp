#include "plan_diff_model.hpp"

#include <QBrush>
#include <QColor>

namespace sb::gui {

PlanDiffModel::PlanDiffModel(QObject* parent) : ColumnTableModel(parent) {}

void PlanDiffModel::setPlans(const QStringList& runLabels, const std::vector<Plan>& plans)
{
    beginResetModel();
    labels_ = runLabels;
    plans_ = plans;
    rows_ = diffPlans(plans_);
    endResetModel();
}

QVariant PlanDiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const PlanDifference& d = rows_[static_cast<std::size_t>(index.row())];
    const int value = index.column() - FirstRunColumn;
    if (role == Qt::ForegroundRole && value > 0 && d.values.value(value) != d.values.value(0))
        return QBrush(QColor(0xb3, 0x5c, 0x00)); // differs from the first run
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (index.column() == SectionColumn) return planDiffSectionName(d.section);
    if (index.column() == ItemColumn) return d.detail.isEmpty() ? d.item : d.item + QStringLiteral(": ") + d.detail;
    return d.values.value(value);
}

QString PlanDiffModel::columnTitle(int column) const
{
    if (column == SectionColumn) return tr("Part");
    if (column == ItemColumn) return tr("Item");
    return labels_.value(column - FirstRunColumn);
}

void PlanDiffModel::retranslate()
{
    // Values are formatted in the current language when diffed.
    setPlans(labels_, plans_);
}

} // namespace sb::gui
