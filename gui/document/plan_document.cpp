#include "plan_document.hpp"

#include "change_plan.hpp"

#include "plan/plan_json.hpp"

#include <QUndoStack>

namespace sb::gui {

PlanDocument::PlanDocument(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this))
{
    connect(undoStack_, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
    reset(defaultPlan(ModelConfig{}));
}

PlanDocument::~PlanDocument() = default;

bool PlanDocument::hasErrors() const { return sb::hasErrors(problems_); }

void PlanDocument::setFilePath(const QString& path)
{
    if (path == filePath_) return;
    filePath_ = path;
    Q_EMIT filePathChanged(path);
}

bool PlanDocument::isModified() const { return !undoStack_->isClean(); }

void PlanDocument::markSaved() { undoStack_->setClean(); }

void PlanDocument::reset(const Plan& plan, const QString& filePath, const Problems& readProblems)
{
    undoStack_->clear();
    readProblems_ = readProblems;
    readRevision_ = revision_ + 1;
    setFilePath(filePath);
    apply(plan, PlanAspect::Model | PlanAspect::Units | PlanAspect::Mesh | PlanAspect::Training | PlanAspect::Name);
    undoStack_->setClean();
}

bool PlanDocument::change(const QString& text, PlanAspects aspects, const Plan& after, int mergeKey)
{
    // The saved form is the plan's identity: equal JSON, nothing to undo.
    if (planToJson(after) == planToJson(plan_)) return false;
    undoStack_->push(new ChangePlan(this, text, aspects, plan_, after, mergeKey));
    return true;
}

void PlanDocument::apply(const Plan& plan, PlanAspects aspects)
{
    plan_ = plan;
    ++revision_;
    if (aspects & PlanAspect::Model) rebuildTree();
    revalidate();
    if (aspects & PlanAspect::Model) Q_EMIT modelReset();
    else if (aspects & PlanAspect::Units) Q_EMIT unitsChanged();
    if (aspects & PlanAspect::Mesh) Q_EMIT meshChanged();
    if (aspects & PlanAspect::Training) Q_EMIT trainingChanged();
    Q_EMIT problemsChanged();
    Q_EMIT changed();
}

void PlanDocument::rebuildTree()
{
    treeProblems_.clear();
    tree_ = buildModuleTree(plan_.model, &treeProblems_);
}

void PlanDocument::revalidate()
{
    // As validateLoaded does: everything at once, but a path the reader or the
    // tree parser already reported is not reported a second time.
    problems_.clear();
    if (revision_ == readRevision_) problems_ = readProblems_;
    problems_.insert(problems_.end(), treeProblems_.begin(), treeProblems_.end());
    for (Problem& p : validatePlan(plan_, *tree_)) {
        bool seen = false;
        for (const Problem& q : problems_) seen = seen || q.path == p.path;
        if (!seen) problems_.push_back(std::move(p));
    }
}

} // namespace sb::gui
