// Edits a person makes to a plan, as pure functions on a copy (testable
// without a window) plus thin helpers that push them through the document's
// undo stack with a translated description.
#pragma once

#include "plan_document.hpp"

#include <QString>
#include <QVariant>

#include <optional>
#include <vector>

namespace sb::gui {

// One editable per-unit setting. Values travel as QVariant:
//   Unit, Offload, Checkpointing: bool
//   Reshard: QString "default" | "true" | "false" | "<k>"
//   ParamDtype, ReduceDtype, OutputDtype: QString "" (the parameter's own) | "fp32" | "bf16" | "fp16" | "fp64"
//   ForwardPrefetch, BackwardPrefetch: QStringList of unit module paths
enum class PolicyField {
    Unit,
    Reshard,
    ParamDtype,
    ReduceDtype,
    OutputDtype,
    Offload,
    Checkpointing,
    ForwardPrefetch,
    BackwardPrefetch,
};

std::optional<Reshard> parseReshard(const QString& text);
QString reshardValue(const Reshard& r); // "default", "true", "false" or "4"
QVariant policyValue(const UnitPolicy& unit, PolicyField field);

// Sets `field` on the units of `modules` (module indices of `tree`). For Unit,
// true makes each module a unit (inheriting the enclosing unit's mixed
// precision and offload) and false removes it (never the root), dropping
// prefetch references to it. Other fields touch only modules that are units.
// Returns the number of units changed, or -1 when `value` is not valid.
int setPolicy(Plan& plan, const ModuleTree& tree, const std::vector<int>& modules, PolicyField field,
              const QVariant& value);

// Makes every repeated block (ModuleTree::blocks()) a unit; returns how many were added.
int makeBlocksUnits(Plan& plan, const ModuleTree& tree);

// The plan for a new model config: units whose module still exists are kept,
// and if every block was a unit, every block of the new model is one too.
// A new preset starts from the preset's default units instead.
Plan planWithModel(const Plan& plan, const ModelConfig& model, bool newPreset);

// Undoable versions. Each returns false when nothing changed. `settled` are
// the fields the person set (PlanDocument::change).
bool editPolicy(PlanDocument& doc, const std::vector<int>& modules, PolicyField field, const QVariant& value);
bool editMakeBlocksUnits(PlanDocument& doc);
bool editModel(PlanDocument& doc, const ModelConfig& model, bool newPreset, int mergeKey = 0,
               const std::vector<JsonPath>& settled = {});
bool editMesh(PlanDocument& doc, const Mesh& mesh, int mergeKey = 0, const std::vector<JsonPath>& settled = {});
bool editTraining(PlanDocument& doc, const TrainingConfig& training, int mergeKey = 0,
                  const std::vector<JsonPath>& settled = {});

} // namespace sb::gui
