// What every client of a detached run does besides following it, written
// once for the CLI and the workbench: open an AttachSession that resumes
// from what the store already holds, and stop the run where it lives.
#pragma once

#include "attach_session.hpp"

#include "store/run_reader.hpp"
#include "store/store_records.hpp"

#include <memory>

namespace sb::launch {

class SshConnection;

// An AttachSession for run `runId` of `store` (whose file is `dbPath`),
// resuming from the offsets and caps recorded there; or why not: the store
// cannot be read, the run is unknown, not detached, or its target cannot be
// read. `row` (if given) receives the run's row.
Result<std::unique_ptr<AttachSession>> openAttachSession(const QString& dbPath, store::RunStore& store, qint64 runId,
                                                         HostKeyPolicy* policy, const AttachOptions& options,
                                                         store::RunRow* row = nullptr, QObject* parent = nullptr);

// What `shardbench-supervise signal` found of a run's supervisor, by its
// process rather than its run directory.
struct SupervisorProcess {
    bool looked = false;        // shardbench-supervise signal answered
    bool alive = false;         // a supervisor of the run runs (after any signal)
    bool runDirExists = true;
    QList<qint64> pids;         // the supervisors found
    QList<qint64> signalled;    // those that were signalled (and are gone unless `alive`)
    qint64 startTime = -1;      // the first one's (/proc/PID/stat field 22)
};
enum class SupervisorSignal { None, Term, Kill };

// Runs `shardbench-supervise stop [--kill]` where the run lives (a Slurm run:
// scancel, slurm_job.hpp) and waits for it (blocking: up to two minutes; call it off the GUI thread). Returns
// the supervisor's words, or why the run was not stopped.
// When the supervisor says it is not running (its lock is gone: a removed
// run directory), its process is looked for and stopped by pid, start time
// and command line (signalSupervisor()), and `byProcess` (if given) gets
// what was found: a run directory that is gone gives no state ever again.
Result<QString> stopDetachedRun(const AttachTarget& target, bool kill, SupervisorProcess* byProcess = nullptr);

// Runs `shardbench-supervise signal RUN_DIR [--pid P [--start-time T]]
// [--term|--kill]` where the run lives (local or over SSH; over `conn` when
// given, else a new connection). A target with no recorded pid has the
// supervisor looked for by command line. What it found, or why it could not.
Result<SupervisorProcess> signalSupervisor(const AttachTarget& target, SupervisorSignal sig, SshConnection* conn = nullptr);

// Records in `target` the supervisor that `start` said runs as `pid`, with
// its start time when it can be read (the run may already be over), so that
// `stop` can find it without its run directory. Over `conn` for SSH.
void noteSupervisorProcess(AttachTarget* target, qint64 pid, SshConnection* conn = nullptr);

// Whether `found` proves that the run can never report again: its run
// directory is gone and no supervisor of it runs.
inline bool isGoneForGood(const SupervisorProcess& found) { return found.looked && !found.runDirExists && !found.alive; }

// The final row of such a run: cancelled when this client stopped its
// supervisor (found.signalled), failed otherwise.
store::RunUpdate goneRunUpdate(qint64 runId, const AttachTarget& target, const SupervisorProcess& found);

} // namespace sb::launch
