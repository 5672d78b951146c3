// Why a rank's end failed its run, as a reason of the failure catalogue
// (failure_reason.hpp). The launcher (launch/failure_analysis.cpp) and the
// cluster-side supervisor (core/supervisor) both observe rank ends and word
// them through this one mapping, so a detached run's reason carries the same
// codes as one the launcher watched.
#pragma once

#include "failure_reason.hpp"

#include <optional>
#include <string>

namespace sb {

struct RankEnding {
    enum Kind {
        Exited,          // code: the exit status
        Signaled,        // code: the signal number; signal: its name ("SIGKILL")
        Lost,            // detail: how (its host connection dropped, ...)
        NotStarted,      // detail: why it could not be started
        ConnectionLost,  // ssh exited with 255 after the rank had started
        Unreachable      // ssh exited with 255 before the rank started
    };
    Kind kind = Exited;
    int code = 0;
    std::string signal;
    std::string detail;
    bool stoppedByLauncher = false; // a signal from our own stop
};

// The reason for rank `rank` on `host`, with the rank's last error (its last
// `error` event or stderr line) as the detail; nullopt for a clean exit.
std::optional<FailureReason> rankFailure(int rank, const std::string& host, const RankEnding& ending,
                                         const std::string& lastError = {});

} // namespace sb
