#pragma once
// state.json of a detached run (docs/protocol.md, "state.json"): the
// supervisor's account of the run, replaced atomically on each change and
// read by the follower and every client. The one definition of its fields:
// the supervisor writes through runStateJson(), the launcher reads through
// readRunState(). Torch-free, Qt-free.

#include "json/json.hpp"
#include "util/status.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sb::protocol {

// A reader refuses a state whose "version" is newer than its own, by name.
// Fields may be added within a version; a change an older reader would
// misread makes a new one.
inline constexpr int kStateVersion = 1;
// The supervisor rewrites state.json at least this often (its "refresh_s"),
// so a client can tell a stopped (SIGSTOP) supervisor that still holds its lock.
inline constexpr double kStateRefreshS = 5;

// A reason in English ("reason"), and the failure catalogue's code and
// arguments ("reason_code", "reason_args") a client words in its own language.
struct StateReason {
    std::string text;
    std::string code; // "" when the writer gave none
    std::vector<std::string> args;
};

struct StateAttempt {
    int attempt = 0;
    std::optional<double> startedAt, endedAt;
    std::string status;
    std::optional<StateReason> reason;
    int failingRank = -1;
    std::string resumeDir; // "" for a start from step 0
    int masterPort = 0;
};

struct StateRank {
    int rank = 0;
    std::string host;
    long long pid = 0;
    bool running = false;
    std::string exit; // how it ended ("exit 1", "signal 9"), "" while it runs
};

struct StateCheckpoint {
    long long step = 0;
    std::string path;
};

struct StateSupervisor {
    long long pid = 0;
    std::string host;
};

// Lines of the run directory that could not be written (a full disk).
struct StateLosses {
    long long lines = 0;                                   // "lines_lost"
    std::vector<std::pair<std::string, long long>> byFile; // "lines_lost_by_file"
    std::string writeError;                                // "write_error"
    std::string stateWriteError;                           // "state_write_error": an earlier state was not written
};

struct RunState {
    int version = kStateVersion;
    std::string runId;
    std::string status; // starting, running, restarting, completed, failed, cancelled
    StateReason reason;
    int failingRank = -1;
    std::string failingHost;
    int attempt = 0;
    int maxRestarts = 0;
    int worldSize = 0;
    // Absent until a supervisor writes the state (a Slurm job in the queue).
    std::optional<StateSupervisor> supervisor;
    std::optional<double> startedAt, endedAt, updatedAt;
    double refreshS = 0; // 0: a supervisor that does not refresh its state
    long long stepsDone = 0;
    long long failedCheckpoints = 0;
    std::optional<double> finalLoss;
    std::optional<StateCheckpoint> latestCheckpoint;
    StateLosses losses;
    std::vector<StateAttempt> attempts;
    std::vector<StateRank> ranks;
};

json::Value runStateJson(const RunState& state);

// ok, or why `state` (read from `where`, named in the message) cannot be
// read by this build: not an object, a "version" that is not a whole number
// from 1, or one newer than kStateVersion (then `update` says what to do).
Status checkStateVersion(const json::Value& state, const std::string& where, const std::string& update);
// The state as written; fields this build does not know are ignored, and a
// field of the wrong type reads as absent.
Result<RunState> readRunState(const json::Value& state, const std::string& where, const std::string& update);

} // namespace sb::protocol
