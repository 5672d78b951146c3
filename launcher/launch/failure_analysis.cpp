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

namespace {

std::optional<FailureReason> catalogued(const ObservedExit& o)
{
    const RankExit& e = o.exit;
    if (o.host.isEmpty()) return std::nullopt;
    const auto arg = [](const QString& s) { return s.toStdString(); };
    std::vector<std::string> args{std::to_string(e.rank), arg(o.host)};
    FailureCode code = FailureCode::RankExited;
    switch (e.kind) {
    case RankExit::Exited:
        switch (static_cast<protocol::CoreExit>(e.code)) {
        case protocol::CoreExit::Ok: return std::nullopt;
        case protocol::CoreExit::Failed: code = FailureCode::RankRuntimeFailure; break;
        case protocol::CoreExit::BadInput: code = FailureCode::RankBadInput; break;
        case protocol::CoreExit::RendezvousFailed: code = FailureCode::RankRendezvous; break;
        case protocol::CoreExit::CannotRun: code = FailureCode::RankCannotRun; break;
        case protocol::CoreExit::NotFound: code = FailureCode::RankNotFound; break;
        default: args.push_back(std::to_string(e.code)); break;
        }
        break;
    case RankExit::Signaled:
        if (e.stoppedByLauncher) {
            code = FailureCode::RankStopped;
        } else {
            code = FailureCode::RankKilled;
            args.push_back(std::to_string(e.code));
        }
        args.push_back(arg(signalName(e.code)));
        break;
    case RankExit::Lost:
        code = FailureCode::RankLost;
        args.push_back(arg(e.detail));
        break;
    case RankExit::NotStarted:
        code = FailureCode::RankNotStarted;
        args.push_back(arg(e.detail));
        break;
    }
    if (!o.lastError.isEmpty()) args.push_back(arg(o.lastError));
    return FailureReason{code, std::move(args)};
}

} // namespace

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
