// What the supervisor could not write into the run directory (a full disk, a
// quota, a failing disk), and the room it keeps so that its state can still
// be written then. A run that lost lines never ends as a plain completion:
// state.json counts them ("lines_lost", per file in "lines_lost_by_file") and
// says why ("write_error"), and its reason says "N lines lost: ...".
#pragma once

#include "protocol/run_state.hpp"
#include "plan/failure_reason.hpp"
#include "util/status.hpp"

#include <map>
#include <string>
#include <string_view>

namespace sb::supervise {

class WriteLosses {
public:
    // A line that could not be appended to `file` (relative to the run
    // directory), errno `err`. True when `file` was writing until now (the
    // moment to say so once, not once a line).
    bool lost(const std::string& file, int err);
    // A line of `file` written: the number it lost in its last failing stretch
    // (0 when it was not failing), which ends there.
    long long written(const std::string& file);
    // state.json could not be replaced (errno `err`); not a lost line: a later write replaces it.
    void stateNotWritten(int err);

    long long total() const { return total_; }
    // "no space left on device (ENOSPC) writing attempt-0/rank-1.events": the first failure.
    const std::string& error() const { return error_; }
    // The reason of a run that completed with lines lost.
    FailureReason reason() const { return linesLostReason(total_, error_); }
    // The counts state.json carries ("lines_lost", "lines_lost_by_file",
    // "write_error" when anything was lost; "state_write_error" when a state
    // could not be written).
    protocol::StateLosses counts() const;

private:
    struct PerFile {
        long long lost = 0;
        long long stretch = 0; // lost since it last wrote
    };
    std::map<std::string, PerFile> files_;
    long long total_ = 0;
    std::string error_;
    std::string stateError_;
};

// "no space left on device (ENOSPC) writing FILE"
std::string writeErrorText(int err, const std::string& file);

// state.json, replaced atomically, with room set aside for it: a file of
// kReserveBytes beside it (state.reserve) is shrunk for a replacement that
// finds the disk full and grown back once the old state is gone, so the run's
// end is recorded even when its lines no longer fit.
class StateFile {
public:
    static constexpr long long kReserveBytes = 1 << 20;
    explicit StateFile(std::string runDir) : dir_(std::move(runDir)) {}
    ~StateFile();
    StateFile(const StateFile&) = delete;
    StateFile& operator=(const StateFile&) = delete;
    // Replaces state.json with `text`; errno says why on failure.
    Status write(std::string_view text);
    // The reserve is not needed once the run's end is recorded.
    void releaseReserve();

private:
    void growReserve();
    std::string dir_;
    int reserveFd_ = -1;
    bool released_ = false;
};

} // namespace sb::supervise
