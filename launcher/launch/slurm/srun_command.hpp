// The one srun of a Slurm attempt: every rank is a task of one job step,
// laid out node by node as the plan's mesh says. srun is run directly, with an
// argument vector; no shell ever sees these values.
#pragma once

#include "../prepared_launch.hpp"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sb::launch {

// srun's arguments, then the core and its arguments:
//   --verbose --job-name=NAME --nodes=N --ntasks=W --ntasks-per-node=P
//   --distribution=block --kill-on-bad-exit=1 --label --chdir=WORKDIR
//   [--gpus-per-node=P] [--partition=..] [--account=..] [--time=..] [extra...]
//   CORE --plan PLAN --run-id UID [--resume DIR]
// or, for the PyTorch engine, /bin/sh -c SHIM sb-rank PYTHON SCRIPT [ARGS...]:
// a fixed shim that gives each task torchrun's variables from its SLURM_* ones
// (Python does not derive them, as the core does).
// --verbose (once) makes srun name the job, its nodes and each node's tasks.
QStringList srunArguments(const PreparedLaunch& launch, const AttemptSpec& attempt, const QString& planPath,
                          const QString& workdir);

// srun passes its environment to every task. Taken out: torchrun's per-rank
// variables (the core derives them from SLURM_*; set ones would win) and the
// SLURM_* input variables that change srun's output or the environment it
// exports. Added: the run's shared variables, and MASTER_ADDR / MASTER_PORT
// when the run sets them.
QProcessEnvironment srunEnvironment(const PreparedLaunch& launch, const AttemptSpec& attempt, QProcessEnvironment base);

// The Slurm job name of a run: its name without control characters, or "shardbench".
QString slurmJobName(const QString& runName);

} // namespace sb::launch
