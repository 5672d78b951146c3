#include "rank_log_fetch.hpp"

#include "detached_control.hpp"

namespace sb::launch {

std::unique_ptr<AttachSession> openRankLogFetch(const QString& dbPath, store::RunStore& store, qint64 runId, int rank,
                                                HostKeyPolicy* policy, QString* error, QObject* parent)
{
    if (rank < 0) {
        *error = QStringLiteral("run %1 has no rank %2").arg(runId).arg(rank);
        return nullptr;
    }
    AttachOptions o;
    o.follow = false;
    o.logs = QString::number(rank);
    o.events = QStringLiteral("none");
    store::RunRow row;
    std::unique_ptr<AttachSession> session = openAttachSession(dbPath, store, runId, policy, o, error, &row, parent);
    if (session && row.worldSize > 0 && rank >= row.worldSize) {
        *error = QStringLiteral("run %1 has no rank %2 (world size %3)").arg(runId).arg(rank).arg(row.worldSize);
        return nullptr;
    }
    return session;
}

} // namespace sb::launch
