// state.json: everything a client learns about the run without its files.
#include "supervisor.hpp"

#include "supervisor_rank.hpp"
#include "util/atomic_file.hpp"

#include <unistd.h>

namespace sb::supervise {

namespace {

// "reason" in English (with `suffix`), and the catalogue's "reason_code" and
// "reason_args" a client words in its own language (docs/launcher.md, "The run directory").
void setReason(json::Value& o, const std::optional<FailureReason>& reason, const std::string& suffix = {})
{
    o.set("reason", reason ? reason->message() + suffix : std::string());
    if (!reason) return;
    o.set("reason_code", reason->codeName());
    o.set("reason_args", stringsToJson(reason->args));
}

} // namespace

void Supervisor::writeState()
{
    json::Value s = json::Value::object();
    s.set("version", kStateVersion);
    s.set("run_id", spec_.runId);
    s.set("status", runStateName(state_));
    // Trained to the end, but not all of it is in the run directory: never a plain completion.
    if (state_ == RunState::Completed && losses_.total() > 0) reason_ = losses_.reason();
    setReason(s, reason_, afterRestartsText(restartsBeforeFailing()));
    s.set("failing_rank", failingRank_);
    s.set("failing_host", failingHost_);
    s.set("attempt", attempts_.empty() ? 0 : attempts_.back().index);
    s.set("max_restarts", spec_.maxRestarts);
    s.set("world_size", spec_.worldSize);
    json::Value sup = json::Value::object();
    sup.set("pid", static_cast<long long>(::getpid()));
    sup.set("host", thisHostName());
    s.set("supervisor", std::move(sup));
    s.set("started_at", startedAt_);
    if (endedAt_ > 0) s.set("ended_at", endedAt_);
    stateWrittenAt_ = unixNow();
    s.set("updated_at", stateWrittenAt_);
    s.set("refresh_s", kStateRefreshS); // rewritten at least this often while the supervisor runs
    s.set("steps_done", stepsDone_);
    s.set("failed_checkpoints", static_cast<long long>(failedCheckpoints_.size()));
    losses_.addTo(s); // lines_lost, lines_lost_by_file, write_error, state_write_error
    if (haveLoss_) s.set("final_loss", lastLoss_);
    if (!latestCheckpoint_.empty()) {
        json::Value ck = json::Value::object();
        ck.set("step", latestCheckpointStep_);
        ck.set("path", latestCheckpoint_);
        s.set("latest_checkpoint", std::move(ck));
    }
    json::Value attempts = json::Value::array();
    for (const Attempt& a : attempts_) {
        json::Value o = json::Value::object();
        o.set("attempt", a.index);
        o.set("started_at", a.startedAt);
        if (a.endedAt > 0) o.set("ended_at", a.endedAt);
        o.set("status", a.status);
        if (a.reason) setReason(o, a.reason);
        if (a.failingRank >= 0) o.set("failing_rank", a.failingRank);
        if (!a.resumeDir.empty()) o.set("resume_dir", a.resumeDir);
        o.set("master_port", a.masterPort);
        attempts.push(std::move(o));
    }
    s.set("attempts", std::move(attempts));
    json::Value ranks = json::Value::array();
    for (const auto& r : ranks_) {
        json::Value o = json::Value::object();
        o.set("rank", r->rank);
        o.set("host", hostOf(*r));
        o.set("pid", r->remote ? r->remotePid : static_cast<long long>(r->pid));
        o.set("running", r->running);
        if (!r->exitText.empty()) o.set("exit", r->exitText);
        ranks.push(std::move(o));
    }
    s.set("ranks", std::move(ranks));
    stateDue_ = false;
    if (const Status written = stateFile_.write(s.dump() + "\n"); !written.ok()) {
        losses_.stateNotWritten(errno);
        if (!stateUnwritten_) log("cannot record the state: " + written.message() + " (tried again every second)");
        stateUnwritten_ = true;
        stateFailedAt_ = unixNow();
    } else if (stateUnwritten_) {
        stateUnwritten_ = false;
        log("the state is recorded again");
    }
}

} // namespace sb::supervise
