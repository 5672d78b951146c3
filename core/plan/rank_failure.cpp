#include "rank_failure.hpp"

#include "protocol/core_exit.hpp"

namespace sb {

namespace {

FailureCode exitCode(int status, bool* known)
{
    *known = true;
    switch (static_cast<protocol::CoreExit>(status)) {
    case protocol::CoreExit::Failed: return FailureCode::RankRuntimeFailure;
    case protocol::CoreExit::BadInput: return FailureCode::RankBadInput;
    case protocol::CoreExit::RendezvousFailed: return FailureCode::RankRendezvous;
    case protocol::CoreExit::CannotRun: return FailureCode::RankCannotRun;
    case protocol::CoreExit::NotFound: return FailureCode::RankNotFound;
    default: *known = false; return FailureCode::RankExited;
    }
}

} // namespace

std::optional<FailureReason> rankFailure(int rank, const std::string& host, const RankEnding& e, const std::string& lastError)
{
    std::vector<std::string> args{std::to_string(rank), host};
    FailureCode code = FailureCode::RankExited;
    switch (e.kind) {
    case RankEnding::Exited: {
        if (e.code == protocol::code(protocol::CoreExit::Ok)) return std::nullopt;
        bool known = false;
        code = exitCode(e.code, &known);
        if (!known) args.push_back(std::to_string(e.code));
        break;
    }
    case RankEnding::Signaled:
        code = e.stoppedByLauncher ? FailureCode::RankStopped : FailureCode::RankKilled;
        if (!e.stoppedByLauncher) args.push_back(std::to_string(e.code));
        args.push_back(e.signal);
        break;
    case RankEnding::Lost:
        code = FailureCode::RankLost;
        args.push_back(e.detail);
        break;
    case RankEnding::NotStarted:
        code = FailureCode::RankNotStarted;
        args.push_back(e.detail);
        break;
    case RankEnding::ConnectionLost: code = FailureCode::RankConnectionLost; break;
    case RankEnding::Unreachable: code = FailureCode::RankUnreachable; break;
    }
    if (!lastError.empty()) args.push_back(lastError);
    return FailureReason{code, std::move(args)};
}

} // namespace sb
