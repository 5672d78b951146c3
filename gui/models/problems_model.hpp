// The document's problems as a table: severity, JSON path, module and the
// sentence (translated where possible, else the CLI's own). A plan whose
// estimated peak exceeds the device is one more error (plan.does_not_fit),
// from the same estimate as the memory verdict, so the two never disagree.
#pragma once

#include "column_table_model.hpp"
#include "text/problem_location.hpp"

#include "plan/problem.hpp"


#include <optional>
#include <vector>

namespace sb::gui {

class MemoryModel;
class PlanDocument;

// The problem a plan that does not fit its device is, or nothing when it fits
// (or has no estimate).
std::optional<Problem> fitProblem(const MemoryModel& memory);

class ProblemsModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, PathColumn, ModuleColumn, MessageColumn, ColumnCount };

    ProblemsModel(PlanDocument* document, MemoryModel* memory, QObject* parent = nullptr);

    const Problem& problem(int row) const { return problems_[static_cast<std::size_t>(row)]; }
    const ProblemLocation& location(int row) const { return locations_[static_cast<std::size_t>(row)]; }
    int errorCount() const;
    int warningCount() const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override { return static_cast<int>(problems_.size()); }
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override;

    void refresh();

    PlanDocument* document_;
    MemoryModel* memory_;
    Problems problems_;
    std::vector<ProblemLocation> locations_;
};

} // namespace sb::gui
