// What every client of a detached run does besides following it, written
// once for the CLI and the workbench: open an AttachSession that resumes
// from what the store already holds, and stop the run where it lives.
#pragma once

#include "attach_session.hpp"

#include "store/run_reader.hpp"

#include <memory>

namespace sb::launch {

// An AttachSession for run `runId` of `store` (whose file is `dbPath`),
// resuming from the offsets and caps recorded there. Null with `error` set
// when the run is unknown, not detached, or its target cannot be read;
// `row` (if given) receives the run's row.
std::unique_ptr<AttachSession> openAttachSession(const QString& dbPath, store::RunStore& store, qint64 runId,
                                                 HostKeyPolicy* policy, const AttachOptions& options, QString* error,
                                                 store::RunRow* row = nullptr, QObject* parent = nullptr);

// Runs `shardbench-supervise stop [--kill]` where the run lives (a Slurm run:
// scancel, slurm_job.hpp) and waits for it (blocking: up to two minutes; call it off the GUI thread). Returns
// "" and the supervisor's words in `said`, or why the run was not stopped.
QString stopDetachedRun(const AttachTarget& target, bool kill, QString* said);

} // namespace sb::launch
