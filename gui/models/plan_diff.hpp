// What differs between the plans of runs: model sizes, mesh, training
// settings, which modules are shard units and, for units every plan has,
// each FSDP2 policy. One row per differing item with each plan's value;
// items that are equal everywhere are left out. Of a single plan, every item
// is a row: the plan itself.
#pragma once

#include "plan/plan.hpp"

#include <QString>
#include <QStringList>

#include <vector>

namespace sb::gui {

struct PlanDifference {
    enum Section { Model, Mesh, Training, Units, Policy };
    Section section = Model;
    QString item;        // "layers", "reshard after forward", or the unit for Units/Policy
    QString detail;      // the policy for Policy rows
    QStringList values;  // one per plan, as shown
};

std::vector<PlanDifference> diffPlans(const std::vector<Plan>& plans);
QString planDiffSectionName(PlanDifference::Section section);

} // namespace sb::gui
