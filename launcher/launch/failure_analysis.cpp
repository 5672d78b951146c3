#include "failure_analysis.hpp"

#include "protocol/core_exit.hpp"

#include <csignal>

namespace sb::launch {

int causePriority(const ObservedExit& o, int graceMs, bool killRequested)
{
    const RankExit& e = o.exit;
    if (e.success() || e.stoppedByLauncher) return -1; // a backend may know its stop caused it
    const bool afterStop = o.msSinceStop >= 0;
    switch (e.kind) {
    case RankExit::NotStarted: return 0;
    case RankExit::Lost: return afterStop ? 4 : 1;
    case RankExit::Signaled:
        if (afterStop) {
            // Our stop sends SIGTERM, then SIGKILL after the grace; a SIGKILL
            // before that came from someone else.
            const bool oursKill = killRequested || o.msSinceStop >= graceMs - 250;
            if (e.code != SIGKILL || oursKill) return -1;
        }
        return 1;
    case RankExit::Exited:
        if (protocol::isSetupFailure(e.code)) return 2; // bad input, rendezvous, cannot run, not found
        return 3;
    }
    return 3;
}

std::optional<ObservedExit> rootCause(const QList<ObservedExit>& exits, int graceMs, bool killRequested)
{
    std::optional<ObservedExit> best;
    int bestPriority = 0;
    for (const ObservedExit& o : exits) {
        const int p = causePriority(o, graceMs, killRequested);
        if (p < 0) continue;
        if (!best || p < bestPriority || (p == bestPriority && o.order < best->order)) {
            best = o;
            bestPriority = p;
        }
    }
    return best;
}

QString failureReason(const ObservedExit& o)
{
    QString s = QStringLiteral("rank %1").arg(o.exit.rank);
    if (!o.host.isEmpty()) s += QStringLiteral(" on ") + o.host;
    s += QLatin1Char(' ') + describeExit(o.exit);
    if (!o.lastError.isEmpty()) s += QStringLiteral(": ") + o.lastError;
    return s;
}

} // namespace sb::launch
