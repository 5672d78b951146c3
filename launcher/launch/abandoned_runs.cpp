#include "abandoned_runs.hpp"

#include "failure_analysis.hpp"
#include "store/sqlite_run_store.hpp"

#include <QDateTime>

#include <cmath>

namespace sb::launch {

QList<AbandonedRun> findAbandonedRuns(store::RunReader& reader)
{
    QList<AbandonedRun> out;
    for (const store::RunRow& r : reader.listRuns()) {
        if (r.isDetached() || !r.isAbandoned()) continue;
        AbandonedRun a;
        a.runId = r.id;
        a.lastHeardAt = reader.lastHeardAt(r.id);
        if (std::isnan(a.lastHeardAt)) a.lastHeardAt = std::isnan(r.startedAt) ? r.createdAt : r.startedAt;
        FailureReason why{FailureCode::LauncherGoneUnknown, {std::to_string(r.launcherPid), r.launcherHost.toStdString()}};
        if (!std::isnan(a.lastHeardAt)) {
            why.code = FailureCode::LauncherGone;
            why.args.push_back(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(a.lastHeardAt * 1000))
                                   .toString(Qt::ISODate)
                                   .toStdString());
        }
        recordReason(a, codedReason(why));
        out << a;
    }
    return out;
}

Status markAbandonedRuns(store::RunStore& writer, const QList<AbandonedRun>& runs)
{
    for (const AbandonedRun& a : runs) {
        store::RunUpdate u;
        u.runId = a.runId;
        u.status = store::RunStatus::Failed;
        u.reason = a.reason;
        u.reasonCode = a.reasonCode;
        u.reasonArgs = a.reasonArgs;
        if (!std::isnan(a.lastHeardAt)) u.endedAt = a.lastHeardAt;
        writer.updateRun(u);
    }
    if (runs.isEmpty()) return {};
    return writer.flush();
}

Result<int> reconcileAbandonedRuns(const QString& dbPath)
{
    QList<AbandonedRun> runs;
    {
        Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(dbPath);
        if (!reader) return reader.status();
        runs = findAbandonedRuns(*reader.value());
    }
    if (runs.isEmpty()) return 0;
    Result<std::unique_ptr<store::SqliteRunStore>> writer = store::SqliteRunStore::open(dbPath);
    if (!writer) return writer.status();
    if (Status marked = markAbandonedRuns(*writer.value(), runs); !marked) return marked;
    return static_cast<int>(runs.size());
}

} // namespace sb::launch
