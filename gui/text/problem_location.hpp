// Where a problem points, from the steps of its JSON path: a unit's module in
// the tree (units, 3, reshard_after_forward -> plan.units[3].module), or a
// field of the model, mesh or training settings.
#pragma once

#include "plan/module_tree.hpp"
#include "plan/plan.hpp"

#include <QString>

namespace sb::gui {

struct ProblemLocation {
    enum Kind { Nowhere, Unit, Model, Mesh, Training };
    Kind kind = Nowhere;
    int module = -1;    // for Unit: the module row, -1 when the unit names no module of the tree
    QString field;      // for Model / Mesh / Training: the keys after the section ("replicate", "optimizer.lr")
};

ProblemLocation locateProblem(const JsonPath& path, const Plan& plan, const ModuleTree& tree);

} // namespace sb::gui
