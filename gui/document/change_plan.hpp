// The one undoable edit of a plan: the plan before and after, and which
// aspects differ (so the document signals only those). Plans are small and
// share an imported tree's JSON, so whole snapshots are cheap and exact.
#pragma once

#include "plan_document.hpp"

#include <QUndoCommand>

namespace sb::gui {

// The document's state a command swaps: the plan and the values kept from its file.
struct PlanState {
    Plan plan;
    KeptValues kept;
};

class ChangePlan : public QUndoCommand {
public:
    ChangePlan(PlanDocument* document, const QString& text, PlanAspects aspects, PlanState before, PlanState after,
               int mergeKey);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    PlanDocument* document_;
    PlanAspects aspects_;
    PlanState before_;
    PlanState after_;
    int mergeKey_;
};

// Keys for edits that merge while a person keeps changing one field.
enum MergeKey : int {
    NoMerge = 0,
    MergeNodes = 1,
    MergeProcsPerNode,
    MergeReplicate,
    MergeDeviceMemory,
    MergeModelSize, // + field index
    MergeTrainingField = MergeModelSize + 32, // + field index (keep last)
};

} // namespace sb::gui
