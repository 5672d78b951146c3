#include "rank_log_fetch.hpp"

#include "detached_control.hpp"

namespace sb::launch {

Result<std::unique_ptr<AttachSession>> openRankLogFetch(const QString& dbPath, store::RunStore& store, qint64 runId, int rank,
                                                        HostKeyPolicy* policy, QObject* parent)
{
    if (rank < 0) return qtError(QStringLiteral("run %1 has no rank %2").arg(runId).arg(rank));
    AttachOptions o;
    o.follow = false;
    o.logs = QString::number(rank);
    o.events = QStringLiteral("none");
    store::RunRow row;
    Result<std::unique_ptr<AttachSession>> session = openAttachSession(dbPath, store, runId, policy, o, &row, parent);
    if (session && row.worldSize > 0 && rank >= row.worldSize)
        return qtError(QStringLiteral("run %1 has no rank %2 (world size %3)").arg(runId).arg(rank).arg(row.worldSize));
    return session;
}

} // namespace sb::launch
