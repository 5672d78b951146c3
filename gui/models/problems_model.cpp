#include "problems_model.hpp"

#include "text/problem_text.hpp"

#include "document/plan_document.hpp"
#include "memory_model.hpp"
#include "text/format.hpp"

#include <QApplication>
#include <QStyle>

namespace sb::gui {

std::optional<Problem> fitProblem(const MemoryModel& memory)
{
    if (!memory.hasEstimate() || memory.estimate().fits()) return std::nullopt;
    const Estimate& e = memory.estimate();
    const std::string name = memory.document()->plan().mesh.deviceName;
    return Problem{Severity::Error,
                   JsonPath().key("mesh").key("device_memory_gib"),
                   ProblemCode::PlanDoesNotFit,
                   {e.worstRank, formatBytes(e.peakBytes()).toStdString(),
                    formatGiB(toGiB(e.peakBytes() - e.capacityBytes)).toStdString(), formatGiB(toGiB(e.capacityBytes)).toStdString(),
                    name}};
}

ProblemsModel::ProblemsModel(PlanDocument* document, MemoryModel* memory, QObject* parent)
    : ColumnTableModel(parent), document_(document), memory_(memory)
{
    connect(document_, &PlanDocument::problemsChanged, this, &ProblemsModel::refresh);
    connect(memory_, &MemoryModel::estimateChanged, this, &ProblemsModel::refresh);
    refresh();
}

void ProblemsModel::refresh()
{
    beginResetModel();
    problems_ = document_->problems();
    // The estimate follows an edit on the next turn of the event loop: until
    // then it is of the previous plan, and says nothing about this one.
    if (memory_->revision() == document_->revision())
        if (std::optional<Problem> fit = fitProblem(*memory_)) problems_.push_back(std::move(*fit));
    locations_.clear();
    for (const Problem& p : problems_) locations_.push_back(locateProblem(p.path, document_->plan(), document_->tree()));
    endResetModel();
}

int ProblemsModel::errorCount() const
{
    int n = 0;
    for (const Problem& p : problems_) n += p.severity == Severity::Error;
    return n;
}

int ProblemsModel::warningCount() const { return static_cast<int>(problems_.size()) - errorCount(); }

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Problem& p = problem(index.row());
    const ProblemLocation& loc = location(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case SeverityColumn: return severityText(p.severity);
        case PathColumn: return QString::fromStdString(p.path.str());
        case ModuleColumn:
            if (loc.kind != ProblemLocation::Unit || loc.module < 0) return QString();
            return loc.module == 0 ? tr("(root)") : QString::fromStdString(document_->tree().module(loc.module).path);
        case MessageColumn: return problemText(p);
        default: return {};
        }
    }
    if (role == Qt::DecorationRole && index.column() == SeverityColumn)
        return QApplication::style()->standardIcon(p.severity == Severity::Error ? QStyle::SP_MessageBoxCritical
                                                                                : QStyle::SP_MessageBoxWarning);
    if (role == Qt::ToolTipRole) return QString::fromStdString(formatProblem(p));
    return {};
}

QString ProblemsModel::columnTitle(int column) const
{
    switch (column) {
    case SeverityColumn: return tr("Severity");
    case PathColumn: return tr("Path");
    case ModuleColumn: return tr("Module");
    case MessageColumn: return tr("Problem");
    default: return {};
    }
}

} // namespace sb::gui
