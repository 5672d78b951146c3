#include "run_status.hpp"

namespace sb::store {

QString statusName(RunStatus s)
{
    switch (s) {
    case RunStatus::Starting: return QStringLiteral("starting");
    case RunStatus::Running: return QStringLiteral("running");
    case RunStatus::Completed: return QStringLiteral("completed");
    case RunStatus::Failed: return QStringLiteral("failed");
    case RunStatus::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("unknown");
}

std::optional<RunStatus> parseStatus(const QString& name)
{
    for (RunStatus s : {RunStatus::Starting, RunStatus::Running, RunStatus::Completed, RunStatus::Failed, RunStatus::Cancelled})
        if (statusName(s) == name) return s;
    return std::nullopt;
}

} // namespace sb::store
