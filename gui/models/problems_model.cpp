#include "problems_model.hpp"

#include "text/problem_text.hpp"

#include "document/plan_document.hpp"

#include <QApplication>
#include <QStyle>

namespace sb::gui {

ProblemsModel::ProblemsModel(PlanDocument* document, QObject* parent) : QAbstractTableModel(parent), document_(document)
{
    connect(document_, &PlanDocument::problemsChanged, this, &ProblemsModel::refresh);
    refresh();
}

void ProblemsModel::refresh()
{
    beginResetModel();
    problems_ = document_->problems();
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

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

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

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case PathColumn: return tr("Path");
    case ModuleColumn: return tr("Module");
    case MessageColumn: return tr("Problem");
    default: return {};
    }
}

void ProblemsModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace sb::gui
