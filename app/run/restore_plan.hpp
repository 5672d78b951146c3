// Restoring a checkpoint as a new run: the checkpoint's own plan (what was
// trained) with the mesh adjusted to the world size the user picks (loading
// reshards at any world size), the HSDP replicas kept when they still divide
// it, training continued to the chosen step. The new run writes its
// checkpoints into its own folder DIR/<its run id>, so the parent's root can be
// shared and the parent's checkpoints are never rotated away. A PyTorch run's
// DCP checkpoint (no index.json, no plan of its own) restores with the plan
// and the program of the run that saved it: the script finds it in
// SHARDBENCH_RESUME_FROM and DCP reshards it as it loads.
#pragma once

#include "launch/run_config.hpp"
#include "plan/plan.hpp"
#include "store/run_reader.hpp"

#include <QString>

namespace sb::app {

struct RestoreChoice {
    int worldSize = 1;
    int nodes = 1;          // hosts; worldSize must be a multiple
    int steps = 0;          // train until this step (> the checkpoint's)
    QString checkpointDir;  // where the new run saves ("" = none)
};

struct RestoreSource {
    Plan plan;              // from the checkpoint's index.json (or the run's)
    int step = 0;
    int worldSize = 0;      // 0: not written in a DCP checkpoint (the run's report has it)
    QString runUid;         // the run that saved it (its index.json; a DCP one's folder DIR/<run uid>)
    QString error;          // the checkpoint could not be read
    bool dcp = false;       // a PyTorch run's torch.distributed.checkpoint folder
};

// `fallbackPlanJson`: the plan of the run that saved the checkpoint (a DCP
// checkpoint's only plan).
RestoreSource readRestoreSource(const QString& checkpointDir, const QString& fallbackPlanJson);
// The engine, script, its arguments and Python of the run that saved a
// checkpoint, for the run that restores it.
void runAsBefore(launch::RunConfig& config, const store::RunRow& parent);
Plan restoredPlan(const Plan& plan, const RestoreChoice& choice);
// The default root for the new run's checkpoints: the parent's root (the
// folder holding DIR/<run uid>/step-N, or for format 1 DIR/step-N).
QString defaultRestoreCheckpointDir(const QString& checkpointDir, const QString& runUid);

} // namespace sb::app
