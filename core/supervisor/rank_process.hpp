// One rank's process as the supervisor starts it: its own process group,
// stdout and stderr on pipes, killed with the supervisor (PR_SET_PDEATHSIG).
#pragma once

#include "run_spec.hpp"

#include "util/status.hpp"

#include <string>
#include <sys/types.h>
#include <vector>

namespace sb::supervise {

struct SpawnRequest {
    std::vector<std::string> argv;   // argv[0] is looked up on PATH when it has no '/'
    EnvList env;                     // added to (or replacing in) the supervisor's environment
    std::string workdir;
    bool stdinPipe = false;          // stdin is a pipe the caller holds (else /dev/null)
};

struct Spawned {
    pid_t pid = -1;
    int outFd = -1;
    int errFd = -1;
    int inFd = -1;                   // with stdinPipe: its write end (closing it is an end-of-file there)
};

// The started process, or why it could not start (pipes, fork, exec, workdir).
Result<Spawned> spawnRank(const SpawnRequest& request);

// A TCP port free to bind now, below the ephemeral range (20000-31999), or 0;
// `preferred` (if in that range) is tried first.
int pickRendezvousPort(int preferred = 0);
// Whether a TCP port is free to bind on this machine now.
bool isPortFree(int port);

// Sends `sig` to the process group of `pid` (falling back to the process).
void signalGroup(pid_t pid, int sig);

// "exited with code 1", "was killed by signal 9 (SIGKILL)"
std::string describeWaitStatus(int status);
// "SIGKILL"
std::string signalName(int sig);

} // namespace sb::supervise
