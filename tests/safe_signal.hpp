// Signalling a process from a test. A pid that is not positive is refused:
// QProcess::processId() is 0 once the process has ended, and kill(0, SIG)
// signals the test's own process group (ctest and CI with it); kill(-1, SIG)
// every process the test may signal.
#pragma once

#include <QtGlobal>

#include <cerrno>
#include <csignal>

namespace sb::test {

inline int signalProcess(qint64 pid, int sig)
{
    if (pid <= 0) {
        errno = ESRCH;
        return -1;
    }
    return ::kill(static_cast<pid_t>(pid), sig);
}

} // namespace sb::test
