// Restoring a checkpoint as a new run: the checkpoint's own plan (what was
// trained) with the mesh adjusted to the world size the user picks (loading
// reshards at any world size), the HSDP replicas kept when they still divide
// it, training continued to the chosen step, and checkpoints written into a
// folder of their own so the parent's are never overwritten.
#pragma once

#include "plan/plan.hpp"

#include <QString>

namespace sb::gui {

struct RestoreChoice {
    int worldSize = 1;
    int nodes = 1;          // hosts; worldSize must be a multiple
    int steps = 0;          // train until this step (> the checkpoint's)
    QString checkpointDir;  // where the new run saves ("" = none)
};

struct RestoreSource {
    Plan plan;              // from the checkpoint's index.json (or the run's)
    int step = 0;
    int worldSize = 0;
    QString error;          // the checkpoint could not be read
};

RestoreSource readRestoreSource(const QString& checkpointDir, const QString& fallbackPlanJson);
Plan restoredPlan(const Plan& plan, const RestoreChoice& choice);
// The default folder for the new run's checkpoints: next to the parent's.
QString defaultRestoreCheckpointDir(const QString& checkpointDir, int step);

} // namespace sb::gui
