// The Slurm job of a detached run, through Slurm's own commands run with an
// argument vector (no shell): submit its batch script held, release it,
// cancel it, and ask what state it is in. Blocking (each command at most
// `kSlurmCommandMs`); call them off the GUI thread.
#pragma once

#include "status/qt_status.hpp"

#include <QString>

namespace sb::launch {

inline constexpr int kSlurmCommandMs = 30000;

// `sbatch --parsable --hold SCRIPT` in `workdir` (without the SLURM_*
// variables of an allocation it may be called in: the job is a new one);
// the job id, or why not.
Result<qint64> submitHeldJob(const QString& script, const QString& workdir);
// scontrol release JOB.
Status releaseJob(qint64 jobId);
// Tells the supervisor (the batch step) to stop the run: SIGINT (the ranks
// get the grace), with `kill` SIGUSR1 (they do not); it records "cancelled"
// and the job ends with it. (Slurm's own SIGTERM would mean the job is ending.)
Status cancelJob(qint64 jobId, bool kill);
// scancel JOB: Slurm cancels the job (a queued one is withdrawn).
Status withdrawJob(qint64 jobId);

struct SlurmJobState {
    enum class Phase { Unknown, Queued, Running, Ended, NotFound };
    Phase phase = Phase::Unknown;   // Unknown: Slurm could not be asked (error says why)
    QString state;                  // PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, ...
    QString reason;                 // squeue's reason (Resources, Priority, ...), if any
    QString batchHost;              // the node the supervisor runs on, once running
    QString error;
    QString describe(qint64 jobId) const; // "Slurm job 12 is PENDING (Resources)"
};

// squeue (pending, running and recently ended jobs), then sacct (older ones,
// when accounting is on). NotFound: neither knows the job.
SlurmJobState querySlurmJob(qint64 jobId);

// `stop` for a Slurm run: a queued job is withdrawn (scancel); a running one
// gets cancelJob(kill) and is waited for (at most two minutes) until it is
// gone. What happened, or why the run was not stopped.
Result<QString> stopSlurmRun(qint64 jobId, const QString& runDir, bool kill);

// Parsers of the commands' output, for the tests.
SlurmJobState parseSqueueLine(const QString& line);    // "%T|%r|%B"
SlurmJobState::Phase phaseOfState(const QString& state);
qint64 parseSbatchJobId(const QByteArray& output);     // "123" or "123;cluster"

} // namespace sb::launch
