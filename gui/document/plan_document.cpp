#include "plan_document.hpp"

#include "change_plan.hpp"

#include "plan/plan_json.hpp"

#include <QUndoStack>

#include <unordered_set>

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

const KeptValue* PlanDocument::keptAt(const JsonPath& path) const
{
    if (kept_.empty()) return nullptr;
    const auto it = keptByPath_.find(path.str());
    return it == keptByPath_.end() ? nullptr : &kept_[it->second];
}

json::Value PlanDocument::savedJson() const { return withKeptValues(planToJson(plan_), kept_, plan_); }

void PlanDocument::reset(const Plan& plan, const QString& filePath, const Problems& readProblems, const json::Value* file)
{
    undoStack_->clear();
    KeptValues kept = file ? sb::gui::keptValues(*file, readProblems) : KeptValues{};
    std::unordered_set<std::string> keptPaths;
    for (const KeptValue& k : kept) keptPaths.insert(k.path.str());
    readProblems_.clear();
    for (const Problem& p : readProblems)
        if (!keptPaths.count(p.path.str())) readProblems_.push_back(p);
    readRevision_ = revision_ + 1;
    setFilePath(filePath);
    apply(plan, kept, PlanAspect::Model | PlanAspect::Units | PlanAspect::Mesh | PlanAspect::Training | PlanAspect::Name);
    undoStack_->setClean();
}

bool PlanDocument::change(const QString& text, PlanAspects aspects, const Plan& after, int mergeKey,
                          const std::vector<JsonPath>& settled)
{
    KeptValues kept = keptAfter(kept_, plan_, after, settled);
    // The saved form is the plan's identity: equal JSON, nothing to undo.
    if (kept.size() == kept_.size() && planToJson(after) == planToJson(plan_)) return false;
    undoStack_->push(new ChangePlan(this, text, aspects, {plan_, kept_}, {after, std::move(kept)}, mergeKey));
    return true;
}

void PlanDocument::apply(const Plan& plan, const KeptValues& kept, PlanAspects aspects)
{
    plan_ = plan;
    kept_ = kept;
    keptPaths_.clear();
    keptByPath_.clear();
    if (!kept_.empty()) {
        const UnitIndex units = unitIndex(plan_);
        for (std::size_t i = 0; i < kept_.size(); ++i) {
            keptPaths_.push_back(*currentPath(kept_[i], units)); // a kept value whose unit is gone was dropped
            keptByPath_.emplace(keptPaths_.back().str(), i);
        }
    }
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
    for (std::size_t i = 0; i < kept_.size(); ++i) {
        Problem p = kept_[i].problem;
        p.path = keptPaths_[i];
        problems_.push_back(std::move(p));
    }
    if (revision_ == readRevision_) problems_.insert(problems_.end(), readProblems_.begin(), readProblems_.end());
    problems_.insert(problems_.end(), treeProblems_.begin(), treeProblems_.end());
    // Looked up in a set: a file of 20,000 bad units has 40,000 problems.
    std::unordered_set<std::string> reported;
    for (const Problem& q : problems_) reported.insert(q.path.str());
    for (Problem& p : validatePlan(plan_, *tree_))
        if (reported.insert(p.path.str()).second) problems_.push_back(std::move(p));
}

} // namespace sb::gui
