// state.json: everything a client learns about the run without its files.
#include "supervisor.hpp"

#include "supervisor_rank.hpp"
#include "util/atomic_file.hpp"

#include <unistd.h>

namespace sb::supervise {

namespace {

// "reason" in English (with `suffix`), and the catalogue's "reason_code" and
// "reason_args" a client words in its own language (docs/protocol.md, "state.json").
protocol::StateReason stateReason(const std::optional<FailureReason>& reason, const std::string& suffix = {})
{
    if (!reason) return {};
    return {reason->message() + suffix, reason->codeName(), reason->args};
}

} // namespace

void Supervisor::writeState()
{
    protocol::RunState s;
    s.runId = spec_.runId;
    s.status = runStateName(state_);
    // Trained to the end, but not all of it is in the run directory: never a plain completion.
    if (state_ == RunState::Completed && losses_.total() > 0) reason_ = losses_.reason();
    s.reason = stateReason(reason_, afterRestartsText(restartsBeforeFailing()));
    s.failingRank = failingRank_;
    s.failingHost = failingHost_;
    s.attempt = attempts_.empty() ? 0 : attempts_.back().index;
    s.maxRestarts = spec_.maxRestarts;
    s.worldSize = spec_.worldSize;
    s.supervisor = protocol::StateSupervisor{static_cast<long long>(::getpid()), thisHostName()};
    s.startedAt = startedAt_;
    if (endedAt_ > 0) s.endedAt = endedAt_;
    stateWrittenAt_ = unixNow();
    s.updatedAt = stateWrittenAt_;
    s.refreshS = protocol::kStateRefreshS; // rewritten at least this often while the supervisor runs
    s.stepsDone = stepsDone_;
    s.failedCheckpoints = static_cast<long long>(failedCheckpoints_.size());
    s.losses = losses_.counts();
    if (haveLoss_) s.finalLoss = lastLoss_;
    if (!latestCheckpoint_.empty()) s.latestCheckpoint = protocol::StateCheckpoint{latestCheckpointStep_, latestCheckpoint_};
    for (const Attempt& a : attempts_) {
        protocol::StateAttempt o;
        o.attempt = a.index;
        o.startedAt = a.startedAt;
        if (a.endedAt > 0) o.endedAt = a.endedAt;
        o.status = a.status;
        if (a.reason) o.reason = stateReason(a.reason);
        o.failingRank = a.failingRank;
        o.resumeDir = a.resumeDir;
        o.masterPort = a.masterPort;
        s.attempts.push_back(std::move(o));
    }
    for (const auto& r : ranks_)
        s.ranks.push_back({r->rank, hostOf(*r), r->remote ? r->remotePid : static_cast<long long>(r->pid), r->running, r->exitText});
    stateDue_ = false;
    if (const Status written = stateFile_.write(protocol::runStateJson(s).dump() + "\n"); !written.ok()) {        losses_.stateNotWritten(errno);
        if (!stateUnwritten_) log("cannot record the state: " + written.message() + " (tried again every second)");
        stateUnwritten_ = true;
        stateFailedAt_ = unixNow();
    } else if (stateUnwritten_) {
        stateUnwritten_ = false;
        log("the state is recorded again");
    }
}

} // namespace sb::supervise
