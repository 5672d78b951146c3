// The failure catalogue: every reason the launcher records for a failed run
// as a code with its English template, the same mechanism as the problem
// catalogue (problem_code.hpp): %1..%9 are the reason's arguments in order.
// The store keeps the code and the arguments (runs.reason_code,
// runs.reason_args) next to the English sentence, so a reader can word the
// reason in its own language; the workbench's translatable copy is
// gui/text/run_text.cpp, tested against this list. One argument
// more than the template takes is a detail in the core's own words (a rank's
// last error): it follows the sentence after ": ".
#pragma once

#include "problem_catalogue.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// X(enumerator, code, template)
#define SB_FAILURE_CATALOGUE(X) \
    X(RankExited, "rank.exited", "rank %1 on %2 exited with code %3") \
    X(RankRuntimeFailure, "rank.runtime_failure", "rank %1 on %2 exited with code 1 (runtime failure)") \
    X(RankBadInput, "rank.bad_input", "rank %1 on %2 exited with code 2 (bad input)") \
    X(RankRendezvous, "rank.rendezvous", "rank %1 on %2 exited with code 3 (rendezvous failed)") \
    X(RankCannotRun, "rank.cannot_run", "rank %1 on %2 exited with code 126 (the core could not be executed)") \
    X(RankNotFound, "rank.not_found", "rank %1 on %2 exited with code 127 (the core was not found)") \
    X(RankKilled, "rank.killed", "rank %1 on %2 was killed by signal %3 (%4)") \
    X(RankStopped, "rank.stopped", "rank %1 on %2 was stopped (%3)") \
    X(RankLost, "rank.lost", "rank %1 on %2 was lost: %3") \
    X(RankNotStarted, "rank.not_started", "rank %1 on %2 could not be started: %3") \
    X(LaunchFailed, "launch.failed", "launch failed: %1") \
    X(RanksUnfinished, "run.unfinished", "the ranks stopped without finishing") \
    X(LauncherGone, "run.launcher_gone", "the launcher (pid %1 on %2) is gone; last heard from at %3") \
    X(LauncherGoneUnknown, "run.launcher_gone_unknown", \
      "the launcher (pid %1 on %2) is gone; last heard from at an unknown time") \
    X(RunNotStarted, "run.not_started", "the run could not start: %1") \
    X(RankConnectionLost, "rank.connection_lost", "rank %1 on %2 lost its connection (ssh exited with 255)") \
    X(RankUnreachable, "rank.unreachable", "rank %1 on %2 could not be reached (ssh exited with 255)") \
    X(StoppedOnRequest, "run.stopped", "stopped on request") \
    X(CancelledByUser, "run.cancelled", "cancelled by the user") \
    X(CancelledBySignal, "run.cancelled_signal", "cancelled by the user (%1)") \
    X(CancelledFromWorkbench, "run.cancelled_workbench", "cancelled from the workbench") \
    X(SlurmEndedJob, "run.slurm_ended", "Slurm ended the job (SIGTERM: its time limit, an scancel of the job, a preemption)") \
    X(CheckpointFailed, "run.checkpoint_failed", "1 checkpoint failed (%1)") \
    X(CheckpointsFailed, "run.checkpoints_failed", "%1 checkpoints failed (%2)") \
    X(SupervisorGone, "run.supervisor_gone", "the supervisor on %1 is gone (last heard from at %2)") \
    X(LineLost, "run.line_lost", "1 line lost") \
    X(LinesLost, "run.lines_lost", "%1 lines lost") \
    X(SlurmQueued, "slurm.queued", "queued: Slurm job %1 is %2") \
    X(SlurmEndedNoState, "slurm.ended_no_state", \
      "Slurm job %1 ended %2 and the supervisor recorded no final state (see %3/slurm-%1.out)") \
    X(SlurmEndedBeforeStart, "slurm.ended_before_start", "Slurm job %1 ended %2 before the supervisor started") \
    X(SlurmUnknownNoState, "slurm.unknown_no_state", \
      "Slurm job %1 is unknown to Slurm (squeue and sacct) and the supervisor recorded no final state (see %2/slurm-%1.out)") \
    X(SlurmUnknownBeforeStart, "slurm.unknown_before_start", \
      "Slurm job %1 is unknown to Slurm (squeue and sacct) before the supervisor started")

namespace sb {

enum class FailureCode { SB_FAILURE_CATALOGUE(SB_CATALOGUE_ENUMERATOR) };

// "rank.killed", "rank %1 on %2 was killed by signal %3 (%4)"
using FailureTemplate = CatalogueRow<FailureCode>;

// Every row, in the order of the enum.
inline const std::vector<FailureTemplate>& failureCatalogue()
{
    using Code = FailureCode;
    static const std::vector<FailureTemplate> rows{SB_FAILURE_CATALOGUE(SB_CATALOGUE_ROW)};
    return rows;
}

inline const FailureTemplate& failureTemplate(FailureCode code)
{
    return catalogueRow(failureCatalogue(), code);
}

inline std::optional<FailureCode> failureCodeNamed(std::string_view name)
{
    return codeNamed(failureCatalogue(), name);
}

// A reason: its code and its arguments, already words (numbers, host names).
struct FailureReason {
    FailureCode code;
    std::vector<std::string> args;

    std::string codeName() const { return failureTemplate(code).name; }
    // The English sentence, with the detail (an argument beyond the
    // template's) after ": ".
    std::string message() const { return fillFailure(failureTemplate(code).text, args); }

    // Fills `text` (a template of this catalogue, in any language) and appends the detail.
    static std::string fillFailure(std::string_view text, const std::vector<std::string>& args)
    {
        std::string s = fillTemplate(text, args);
        const std::size_t taken = static_cast<std::size_t>(placeholderCount(text));
        if (args.size() > taken && !args.back().empty()) s += ": " + args.back();
        return s;
    }
};

// The English words a failed run's reason ends with after restarts:
// " (after 1 restart)", " (after 3 restarts)"; "" for none. A reader that
// words reasons in another language appends its own from the run's count.
inline std::string afterRestartsText(int restarts)
{
    if (restarts <= 0) return {};
    return " (after " + std::to_string(restarts) + (restarts == 1 ? " restart)" : " restarts)");
}

// The reason "N checkpoints failed (first failure)" of a run that trained to the end.
inline FailureReason checkpointsFailedReason(std::size_t failed, const std::string& firstFailure)
{
    if (failed == 1) return {FailureCode::CheckpointFailed, {firstFailure}};
    return {FailureCode::CheckpointsFailed, {std::to_string(failed), firstFailure}};
}

// The reason "N lines lost: no space left on device (ENOSPC) writing FILE" of a
// run whose supervisor could not write some of its lines into the run directory.
inline FailureReason linesLostReason(long long lost, const std::string& why)
{
    if (lost == 1) return {FailureCode::LineLost, {why}};
    return {FailureCode::LinesLost, {std::to_string(lost), why}};
}

} // namespace sb
