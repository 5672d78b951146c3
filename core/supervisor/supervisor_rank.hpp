// One rank of the current attempt, as the supervisor tracks it (private to
// supervisor*.cpp).
#pragma once

#include "supervisor.hpp"

#include "plan/rank_failure.hpp"

#include <string>
#include <sys/types.h>

namespace sb::supervise {

struct Supervisor::Rank {
    int rank = 0;
    pid_t pid = -1;            // here: the core; another host: its ssh client
    bool remote = false;       // on another host, through ssh
    bool pending = false;      // waiting for its turn to connect
    double startAt = 0;
    bool confirmed = false;    // the remote wrapper reported the core's pid
    long long remotePid = -1;
    std::string slurmStep;     // Slurm: "JOB.STEP" of its step, as the step announced it
    int inFd = -1;             // remote: the session's stdin; closing it stops the rank there
    int tries = 0;
    int outFd = -1, errFd = -1;
    std::string outBuf, errBuf;
    bool running = false;
    bool exited = false;
    double exitedAt = 0;
    std::string exitText;
    RankEnding ending;         // exitText as the failure catalogue words it
    std::string lastError;     // the message of its last error event
    std::string lastStderr;
    AppendFile events, log;
};

} // namespace sb::supervise
