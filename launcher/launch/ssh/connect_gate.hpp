// Launch at scale for the supervised SSH backend: every host's connection
// passes one gate per launch, so at most kMaxConnecting are connecting or
// authenticating at once (sshd's and a bastion's MaxStartups refuse beyond 10
// by default), and a connection that fails before the login completes is
// tried again after a back-off. The bounds (limits::kMaxConnecting,
// kConnectTries) are the detached runs' supervisor's too.
#pragma once

#include "protocol/run_limits.hpp"

#include <QString>

#include <condition_variable>
#include <functional>
#include <mutex>

namespace sb::launch {

// A counting gate with cancellation, shared by the threads of one launch.
// cancel() wakes every waiter at once: Stop never waits for a back-off.
class ConnectGate {
public:
    explicit ConnectGate(int slots = limits::kMaxConnecting);
    ConnectGate(const ConnectGate&) = delete;
    ConnectGate& operator=(const ConnectGate&) = delete;

    bool acquire();          // waits for a free slot; false once cancelled
    void release();
    bool sleepFor(int ms);   // false when cancelled before the time is up
    void cancel();
    bool isCancelled() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    int free_;
    bool cancelled_ = false;
};

struct ConnectRetryPolicy {
    int tries = limits::kConnectTries;
    int firstDelayMs = 1000; // doubled after each failure
    int maxDelayMs = 30000;
    int delayAfter(int failedTries) const; // the wait before try failedTries + 1
};

// One try: "" when connected (and logged in), else why not and whether
// another try may succeed (the connection broke before the login completed).
struct ConnectAttempt {
    QString error;
    bool retryable = false;
};

struct ConnectResult {
    QString error;          // "" = connected
    int tries = 0;
    bool cancelled = false; // the gate was cancelled: no error to report
};

// Tries `attempt` holding a slot of `gate`, up to policy.tries times while
// it fails retryably, waiting delayAfter(n) between tries (slot released).
// `onRetry(error, nextTry, delayMs)` is told before each wait.
ConnectResult connectWithRetries(ConnectGate& gate, const ConnectRetryPolicy& policy,
                                 const std::function<ConnectAttempt()>& attempt,
                                 const std::function<void(const QString&, int, int)>& onRetry);

} // namespace sb::launch
