// The document's problems as a table: severity, JSON path, module and the
// sentence (translated where possible, else the CLI's own).
#pragma once

#include "text/problem_location.hpp"

#include "plan/problem.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace sb::gui {

class PlanDocument;

class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, PathColumn, ModuleColumn, MessageColumn, ColumnCount };

    explicit ProblemsModel(PlanDocument* document, QObject* parent = nullptr);

    const Problem& problem(int row) const { return problems_[static_cast<std::size_t>(row)]; }
    const ProblemLocation& location(int row) const { return locations_[static_cast<std::size_t>(row)]; }
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void retranslate();

private:
    void refresh();

    PlanDocument* document_;
    Problems problems_;
    std::vector<ProblemLocation> locations_;
};

} // namespace sb::gui
