// The batch script of a detached Slurm run (RUN_DIR/job.sbatch): #SBATCH
// lines for the plan's mesh and the run's Slurm options, comments that say
// what it is, and one command: shardbench-supervise in the foreground, which
// starts the ranks as steps of the job (core/supervisor/slurm_steps.hpp).
// Readable: what it asks of Slurm and what it runs are all in it (the
// supervisor refuses to start a run whose state has ended, so a resubmitted
// script does not train the same run twice).
#pragma once

#include "../prepared_launch.hpp"

#include <QString>

namespace sb::launch {

// The script, or "" and why not (a path or option a #SBATCH line cannot carry).
QString sbatchScript(const PreparedLaunch& launch, const QString& runDir, const QString& supervise, QString* error);

} // namespace sb::launch
