#include "failure_analysis.hpp"

#include "plan/rank_failure.hpp"
#include "protocol/core_exit.hpp"
#include "store/run_reader.hpp"
#include "store/run_status.hpp"

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

namespace {

std::optional<FailureReason> catalogued(const ObservedExit& o)
{
    const RankExit& e = o.exit;
    if (o.host.isEmpty()) return std::nullopt;
    RankEnding ending;
    switch (e.kind) {
    case RankExit::Exited: ending.kind = RankEnding::Exited; break;
    case RankExit::Signaled: ending.kind = RankEnding::Signaled; break;
    case RankExit::Lost: ending.kind = RankEnding::Lost; break;
    case RankExit::NotStarted: ending.kind = RankEnding::NotStarted; break;
    }
    ending.code = e.code;
    if (e.kind == RankExit::Signaled) ending.signal = signalName(e.code).toStdString();
    ending.detail = e.detail.toStdString();
    ending.stoppedByLauncher = e.stoppedByLauncher;
    return rankFailure(e.rank, o.host.toStdString(), ending, o.lastError.toStdString());
}

} // namespace

CodedReason storedReason(const store::RunRow& run)
{
    const bool failed = run.status == store::statusName(store::RunStatus::Failed);
    return {run.reason, run.reasonCode, run.reasonArgs, failed ? run.restarts : 0};
}

CodedReason codedReason(const FailureReason& r)
{
    CodedReason c;
    c.text = QString::fromStdString(r.message());
    c.code = QString::fromStdString(r.codeName());
    for (const std::string& a : r.args) c.args << QString::fromStdString(a);
    return c;
}

CodedReason failureReasonCoded(const ObservedExit& o)
{
    if (const std::optional<FailureReason> r = catalogued(o)) return codedReason(*r);
    QString s = QStringLiteral("rank %1").arg(o.exit.rank);
    if (!o.host.isEmpty()) s += QStringLiteral(" on ") + o.host;
    s += QLatin1Char(' ') + describeExit(o.exit);
    if (!o.lastError.isEmpty()) s += QStringLiteral(": ") + o.lastError;
    return {s, {}, {}};
}

QString failureReason(const ObservedExit& o) { return failureReasonCoded(o).text; }

} // namespace sb::launch
