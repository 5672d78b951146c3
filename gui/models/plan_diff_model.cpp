#include "plan_diff_model.hpp"

#include <QBrush>
#include <QColor>

namespace sb::gui {

PlanDiffModel::PlanDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanDiffModel::setPlans(const QStringList& runLabels, const std::vector<Plan>& plans)
{
    beginResetModel();
    labels_ = runLabels;
    plans_ = plans;
    rows_ = diffPlans(plans_);
    endResetModel();
}

int PlanDiffModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int PlanDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FirstRunColumn + static_cast<int>(labels_.size());
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

QVariant PlanDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section == SectionColumn) return tr("Part");
    if (section == ItemColumn) return tr("Item");
    return labels_.value(section - FirstRunColumn);
}

void PlanDiffModel::retranslate()
{
    // Values are formatted in the current language when diffed.
    setPlans(labels_, plans_);
}

} // namespace sb::gui
