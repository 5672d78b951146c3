// The plan diff of compared runs as a table: section, item, then one column
// per run with its value.
#pragma once

#include "column_table_model.hpp"
#include "plan_diff.hpp"

#include <QStringList>

namespace sb::gui {

class PlanDiffModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { SectionColumn, ItemColumn, FirstRunColumn };

    explicit PlanDiffModel(QObject* parent = nullptr);

    // `runLabels` heads the value columns; `plans` in the same order.
    void setPlans(const QStringList& runLabels, const std::vector<Plan>& plans);
    const std::vector<PlanDifference>& differences() const { return rows_; }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    void retranslate() override;

private:
    int rows() const override { return static_cast<int>(rows_.size()); }
    int columns() const override { return FirstRunColumn + static_cast<int>(labels_.size()); }
    QString columnTitle(int column) const override;

    QStringList labels_;
    std::vector<Plan> plans_;
    std::vector<PlanDifference> rows_;
};

} // namespace sb::gui
