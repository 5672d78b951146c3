// The plan diff of compared runs as a table: section, item, then one column
// per run with its value.
#pragma once

#include "plan_diff.hpp"

#include <QAbstractTableModel>
#include <QStringList>

namespace sb::gui {

class PlanDiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SectionColumn, ItemColumn, FirstRunColumn };

    explicit PlanDiffModel(QObject* parent = nullptr);

    // `runLabels` heads the value columns; `plans` in the same order.
    void setPlans(const QStringList& runLabels, const std::vector<Plan>& plans);
    const std::vector<PlanDifference>& differences() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void retranslate();

private:
    QStringList labels_;
    std::vector<Plan> plans_;
    std::vector<PlanDifference> rows_;
};

} // namespace sb::gui
