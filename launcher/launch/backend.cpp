#include "backend.hpp"

#include <csignal>
#include <cstring>

namespace sb::launch {

QString signalName(int sig)
{
    switch (sig) {
    case SIGHUP: return QStringLiteral("SIGHUP");
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGQUIT: return QStringLiteral("SIGQUIT");
    case SIGILL: return QStringLiteral("SIGILL");
    case SIGABRT: return QStringLiteral("SIGABRT");
    case SIGBUS: return QStringLiteral("SIGBUS");
    case SIGFPE: return QStringLiteral("SIGFPE");
    case SIGKILL: return QStringLiteral("SIGKILL");
    case SIGSEGV: return QStringLiteral("SIGSEGV");
    case SIGPIPE: return QStringLiteral("SIGPIPE");
    case SIGTERM: return QStringLiteral("SIGTERM");
    default: return QStringLiteral("signal %1").arg(sig);
    }
}

QString describeExit(const RankExit& e)
{
    switch (e.kind) {
    case RankExit::Exited: {
        QString s = QStringLiteral("exited with code %1").arg(e.code);
        switch (e.code) {
        case 0: return QStringLiteral("finished");
        case 1: s += QStringLiteral(" (runtime failure)"); break;
        case 2: s += QStringLiteral(" (bad input)"); break;
        case 3: s += QStringLiteral(" (rendezvous failed)"); break;
        case 126: s += QStringLiteral(" (the core could not be executed)"); break;
        case 127: s += QStringLiteral(" (the core was not found)"); break;
        default: break;
        }
        return s;
    }
    case RankExit::Signaled:
        if (e.stoppedByLauncher) return QStringLiteral("was stopped (%1)").arg(signalName(e.code));
        return QStringLiteral("was killed by signal %1 (%2)").arg(e.code).arg(signalName(e.code));
    case RankExit::Lost: return QStringLiteral("was lost: ") + e.detail;
    case RankExit::NotStarted: return QStringLiteral("could not be started: ") + e.detail;
    }
    return {};
}

} // namespace sb::launch
