// The cluster-side supervisor of one detached run (torchrun's agent, for the
// whole run): starts every rank of an attempt, writes their output into the
// run directory, stops them all when one fails, restarts from the newest
// complete checkpoint up to max_restarts, and records every transition in
// state.json. It needs no client: the laptop that launched it may be gone.
// SIGTERM (or SIGINT) cancels the run; SIGUSR1 cancels it without the grace.
// In a Slurm job SIGTERM is Slurm ending the job (time limit, scancel of the
// job, preemption): the ranks are stopped the same way, but the run fails.
#pragma once

#include "run_dir.hpp"
#include "run_spec.hpp"
#include "write_losses.hpp"

#include "json/json.hpp"
#include "plan/failure_reason.hpp"
#include "protocol/events.hpp"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sb::supervise {

enum class RunState { Starting, Running, Restarting, Completed, Failed, Cancelled };
const char* runStateName(RunState s);
bool isFinalState(const std::string& status);

class Supervisor {
public:
    Supervisor(RunSpec spec, std::string runDir);
    ~Supervisor();
    // Supervises until the run ends; 0 completed, 1 failed, 130 cancelled.
    int run();
    // Records that the run could not start at all (state failed); returns 1.
    int failToStart(const std::string& reason);

private:
    struct Rank; // supervisor_rank.hpp
    struct Attempt {
        int index = 0;
        double startedAt = 0, endedAt = 0;
        std::string status, resumeDir;
        std::optional<FailureReason> reason; // why it failed or was cancelled
        int failingRank = -1;
        int masterPort = 0;
    };

    void startAttempt();
    void endAttempt();
    void startRank(Rank& r);
    void startPendingRanks();
    void onLine(Rank& r, char stream, std::string_view line);
    void onRankEvent(Rank& r, const protocol::EventLine& event);
    void readFrom(Rank& r, int fd, char stream);
    void reapChildren();
    void onExit(Rank& r, int status);
    void closeInput(Rank& r);
    void beginStop(bool immediately);
    void killRank(Rank& r);
    void pollOnce(int timeoutMs);
    void writeState();
    // The reason of rank r's end as the catalogue words it (r.ending, its last error).
    std::optional<FailureReason> rankReason(const Rank& r) const;
    // The restarts a failed run made before it gave up (its reason ends " (after N restarts)"); 0 otherwise.
    int restartsBeforeFailing() const;
    void log(const std::string& message);
    // Appends a line to a file of the run directory; a line that cannot be
    // written is counted as lost (losses_), and said once per failing stretch.
    bool record(AppendFile& file, std::string_view line);
    std::string hostOf(const Rank& r) const;

    RunSpec spec_;
    std::string dir_;
    StateFile stateFile_;
    WriteLosses losses_;
    AppendFile supervisorLog_;
    std::vector<std::unique_ptr<Rank>> ranks_;
    std::vector<Attempt> attempts_;

    RunState state_ = RunState::Starting;
    std::optional<FailureReason> reason_; // state.json's reason, its code and arguments
    int failingRank_ = -1;
    std::string failingHost_;
    double startedAt_ = 0, endedAt_ = 0;
    int stepsDone_ = 0;
    double lastLoss_ = 0;
    bool haveLoss_ = false;
    int latestCheckpointStep_ = -1;
    std::set<std::pair<int, int>> failedCheckpoints_; // (attempt, step), from any rank
    std::string firstCheckpointFailure_;
    std::string latestCheckpoint_;

    bool attemptActive_ = false;
    bool stopping_ = false;
    bool cancelled_ = false;
    bool endedBySlurm_ = false;  // Slurm's SIGTERM, not a stop: the run fails
    double killAt_ = 0;          // SIGKILL after the grace
    double stateWrittenAt_ = 0;  // writeState() refreshes it every protocol::kStateRefreshS: clients tell a stopped supervisor
    double restartAt_ = 0;       // the next attempt starts then
    bool stateDue_ = false;      // something to say (lines lost): written at the next turn of the loop
    bool stateUnwritten_ = false; // the last state write failed: tried again every kStateRetryS, and at the end
    double stateFailedAt_ = 0;
    bool finished_ = false;
    int exitCode_ = 1;
};

// Installs the handlers that turn SIGCHLD, SIGTERM, SIGINT and SIGUSR1 into
// bytes on a pipe the supervisor polls.
void installSupervisorSignals();

} // namespace sb::supervise
