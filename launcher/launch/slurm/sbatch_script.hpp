// The batch script of a detached Slurm run (RUN_DIR/job.sbatch): #SBATCH
// lines for the plan's mesh and the run's Slurm options, comments that say
// what it is, and one command: shardbench-supervise in the foreground, which
// starts the ranks as steps of the job (core/supervisor/slurm_steps.hpp).
// Readable: what it asks of Slurm and what it runs are all in it (the
// supervisor refuses to start a run whose state has ended, so a resubmitted
// script does not train the same run twice).
//
// Nothing in it is run as written by a user: comments are one line of
// printable text (a newline would end the comment and start a command), the
// command's arguments are shell-quoted, and each #SBATCH value is written in
// sbatch's own quoting (double quotes, backslash escapes; an unquoted #
// starts a comment there), or refused where that quoting cannot carry it.
#pragma once

#include "status/qt_status.hpp"

#include "../prepared_launch.hpp"

#include <QString>

#include <vector>

namespace sb::launch {

// Where a Slurm run's directories go: `runRoot` made absolute, or, when it
// is "", WORKDIR/.shardbench/runs (the run's working folder, else the current one).
QString slurmRunRoot(const PreparedLaunch& launch, const QString& runRoot);

// What the batch script of `launch` with its directory at `runDir` cannot
// carry, found before anything is written (launch.slurm_batch_value): a double
// quote or a control character in the job name, a Slurm option or a --slurm-arg (sbatch
// would end or misread the value), "hetjob" or "packjob" in one (sbatch reads
// such a line as a job separator), and also a backslash in the run directory
// (an --output pattern with one is not expanded, so the log would go elsewhere).
std::vector<RunConfigProblem> batchScriptProblems(const PreparedLaunch& launch, const QString& runDir);

// The script, or why not (batchScriptProblems(), or a NUL in the supervise path).
Result<QString> sbatchScript(const PreparedLaunch& launch, const QString& runDir, const QString& supervise);

} // namespace sb::launch
