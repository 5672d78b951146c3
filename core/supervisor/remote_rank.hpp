// How a rank on another host is started: one SSH session per rank running a
// fixed /bin/sh wrapper. The wrapper starts the core in its own session
// (setsid), records its PID in a file, prints "@sbw pid N" on stderr, and runs
// a watchdog on the session's stdin: when it reaches end-of-file (the session
// closed, the connection dropped, the starter died) the core's group gets
// SIGTERM, then SIGKILL after the grace. Used by the launcher (libssh) and by
// shardbench-supervise (OpenSSH's ssh) alike.
#pragma once

#include "run_spec.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sb::supervise {

extern const char* const kRankWrapperScript;
inline constexpr char kWrapperPidPrefix[] = "@sbw pid ";

// POSIX shell quoting: single quotes, an embedded ' as '\''.
std::string shellQuote(std::string_view arg);
bool isValidEnvName(std::string_view name);

// "exec '/bin/sh' '-c' '<wrapper>' 'sb-rank' PIDFILE GRACE WORKDIR 'env' 'K=V'... PROGRAM ARGS...".
// Refused for a NUL byte or an invalid variable name.
Result<std::string> remoteRankCommand(const std::string& pidFile, int graceSeconds, const std::string& workdir, const EnvList& env,
                                      const std::string& program, const std::vector<std::string>& args);

} // namespace sb::supervise
