#include "connect_gate.hpp"

#include <algorithm>
#include <chrono>

namespace sb::launch {

ConnectGate::ConnectGate(int slots) : free_(std::max(1, slots)) {}

bool ConnectGate::acquire()
{
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || free_ > 0; });
    if (cancelled_) return false;
    --free_;
    return true;
}

void ConnectGate::release()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++free_;
    }
    changed_.notify_all();
}

bool ConnectGate::sleepFor(int ms)
{
    std::unique_lock<std::mutex> lock(mutex_);
    return !changed_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return cancelled_; });
}

void ConnectGate::cancel()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        cancelled_ = true;
    }
    changed_.notify_all();
}

bool ConnectGate::isCancelled() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return cancelled_;
}

int ConnectRetryPolicy::delayAfter(int failedTries) const
{
    const int doublings = std::clamp(failedTries - 1, 0, 20);
    return static_cast<int>(std::min<long long>(maxDelayMs, static_cast<long long>(firstDelayMs) << doublings));
}

ConnectResult connectWithRetries(ConnectGate& gate, const ConnectRetryPolicy& policy,
                                 const std::function<ConnectAttempt()>& attempt,
                                 const std::function<void(const QString&, int, int)>& onRetry)
{
    ConnectResult r;
    for (;;) {
        if (!gate.acquire()) {
            r.cancelled = true;
            return r;
        }
        ++r.tries;
        const ConnectAttempt a = attempt();
        gate.release();
        if (a.error.isEmpty()) {
            r.error.clear();
            return r;
        }
        r.error = a.error;
        if (!a.retryable) return r;
        if (r.tries >= policy.tries) {
            if (r.tries > 1) r.error += QStringLiteral(" (tried %1 times)").arg(r.tries);
            return r;
        }
        const int delay = policy.delayAfter(r.tries);
        if (onRetry) onRetry(a.error, r.tries + 1, delay);
        if (!gate.sleepFor(delay)) {
            r.cancelled = true;
            return r;
        }
    }
}

} // namespace sb::launch
