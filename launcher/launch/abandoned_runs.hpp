// Runs whose launcher on this machine is gone (killed, crashed, rebooted)
// would stay "running" forever: `runs` and the workbench mark them failed,
// saying when they were last heard from. Detached runs are not judged here:
// their supervisor lives elsewhere and attaching learns their fate.
#pragma once

#include "status/qt_status.hpp"

#include "store/run_reader.hpp"
#include "store/run_store.hpp"

#include <QList>
#include <QString>
#include <QStringList>

namespace sb::launch {

struct AbandonedRun {
    qint64 runId = -1;
    double lastHeardAt = store::kNoTime; // the newest step, event or log line; else when it started
    QString reason;  // "the launcher (pid N on HOST) is gone; last heard from at TIME"
    QString reasonCode;       // its failure catalogue code (plan/failure_reason.hpp)
    QStringList reasonArgs;
};

QList<AbandonedRun> findAbandonedRuns(store::RunReader& reader);
// Marks them failed (ended when last heard from) and flushes; or the storage error.
[[nodiscard]] Status markAbandonedRuns(store::RunStore& writer, const QList<AbandonedRun>& runs);
// Both, opening a writer only when there is something to mark. Returns how
// many runs were marked, or why the store could not be read or written.
Result<int> reconcileAbandonedRuns(const QString& dbPath);

} // namespace sb::launch
