#include "change_plan.hpp"

#include "plan/plan_json.hpp"

#include <utility>

namespace sb::gui {

ChangePlan::ChangePlan(PlanDocument* document, const QString& text, PlanAspects aspects, PlanState before,
                       PlanState after, int mergeKey)
    : QUndoCommand(text), document_(document), aspects_(aspects), before_(std::move(before)), after_(std::move(after)),
      mergeKey_(mergeKey)
{
}

void ChangePlan::undo() { document_->apply(before_.plan, before_.kept, aspects_); }

void ChangePlan::redo() { document_->apply(after_.plan, after_.kept, aspects_); }

int ChangePlan::id() const { return mergeKey_ > 0 ? mergeKey_ : -1; }

bool ChangePlan::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const ChangePlan*>(other);
    if (!next || next->document_ != document_ || next->aspects_ != aspects_) return false;
    after_ = next->after_;
    // Back where it started: the step disappears from the history.
    // (kept values only ever go, so equal counts are equal sets)
    setObsolete(after_.kept.size() == before_.kept.size() && planToJson(after_.plan) == planToJson(before_.plan));
    return true;
}

} // namespace sb::gui
