// Commands for detached runs (docs/launcher.md#detached-runs): attach, stop,
// and the catch-up that `runs --refresh` does. Need a QCoreApplication.
#pragma once

#include "launch/detach/attach_session.hpp"
#include "store/run_reader.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdAttach(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdStop(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Attaches to run `runId` of the store at `dbPath` and ingests until the run
// ends (follow) or everything written so far is stored; prints progress on
// stderr and a summary on stdout. Each alert of the run (launch/run_alerts.hpp)
// is said and given to `alertCommand` when set (launch::startAlertCommand).
// Returns the exit code of `attach`.
int attachAndIngest(const QString& dbPath, qint64 runId, const launch::AttachOptions& options, bool quiet,
                    std::ostream& out, std::ostream& err, const QString& alertCommand = {});

// The exit status of `run` and `attach` for a run that ended `status`
// (command_exit.hpp): a completed run whose checkpoints failed or whose lines
// were lost exits kExitCheckpointsFailed.
int runExitStatus(store::RunStatus status, bool checkpointsFailed);

// Fetches what the store lacks of rank `rank`'s log of detached run `runId`
// (launch/detach/rank_log_fetch.hpp), or why it could not.
[[nodiscard]] Status fetchRankLog(const QString& dbPath, qint64 runId, int rank);

// A detached run the store still has as starting or running, whose run
// directory is gone and of which no supervisor runs (asked where it lives:
// by process, detached_control.hpp) can never report again: records it
// failed, says so on `err` and returns true. False when it may still run,
// cannot be asked, or is not such a run.
bool settleVanishedRun(const QString& dbPath, const store::RunRow& run, std::ostream& err);

// Catches up every detached run of the store that is not final (a run that
// cannot be reached is named on `err`). Returns how many it tried.
int refreshDetachedRuns(const QString& dbPath, std::ostream& err);

// The usage of each, as its errors and --help print it.
extern const char* const kAttachUsage;
extern const char* const kStopUsage;

} // namespace sb::cli
