#include "change_plan.hpp"

#include "plan/plan_json.hpp"

#include <utility>

namespace sb::gui {

ChangePlan::ChangePlan(PlanDocument* document, const QString& text, PlanAspects aspects, Plan before, Plan after,
                       int mergeKey)
    : QUndoCommand(text), document_(document), aspects_(aspects), before_(std::move(before)), after_(std::move(after)),
      mergeKey_(mergeKey)
{
}

void ChangePlan::undo() { document_->apply(before_, aspects_); }

void ChangePlan::redo() { document_->apply(after_, aspects_); }

int ChangePlan::id() const { return mergeKey_ > 0 ? mergeKey_ : -1; }

bool ChangePlan::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const ChangePlan*>(other);
    if (!next || next->document_ != document_ || next->aspects_ != aspects_) return false;
    after_ = next->after_;
    // Back where it started: the step disappears from the history.
    setObsolete(planToJson(after_) == planToJson(before_));
    return true;
}

} // namespace sb::gui
