#pragma once
// What `shardbench-supervise signal RUN_DIR` prints on its stdout: one JSON
// line naming the supervisors of a run directory found by process, which of
// them it signalled and whether any still lives (docs/protocol.md, "Stopping
// a detached run"). Written by the supervisor, read by the launcher through
// these. Torch-free, Qt-free.
//
//   {"alive":false,"pids":[4242],"signalled":[4242],"start_time":123456,"run_dir":true}

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::protocol {

struct SignalReply {
    bool alive = false;              // a supervisor of the directory still runs
    std::vector<long long> pids;     // the supervisors found
    std::vector<long long> signalled;
    long long startTime = -1;        // the first one's start time (clock ticks since boot), -1 unknown
    bool runDirExists = true;
};

std::string signalReplyJson(const SignalReply& reply);
// The reply among the lines of `output` (other lines, stderr merged in, are
// skipped); nullopt when there is none.
std::optional<SignalReply> findSignalReply(std::string_view output);

} // namespace sb::protocol
