#include "past_run.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"

#include "jobs/work_pool.hpp"

#include <QSignalBlocker>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::gui {

PastRun::PastRun(QObject* parent) : QObject(parent), live_(new LiveRunModel(this)), logs_(new RunLogModel(this))
{
    connect(&watcher_, &QFutureWatcher<StoredRun>::finished, this, [this] {
        if (pendingRun_ >= 0) {
            const qint64 run = pendingRun_;
            pendingRun_ = -1;
            load(pendingPath_, run);
            return;
        }
        shown_ = watcher_.result();
        // The page keeps its own copy of what the models show: the steps and
        // logs live in the models from here on.
        {
            // Filled in one go, unseen: the page draws it all once (loaded()), not once per step.
            const QSignalBlocker quiet(live_);
            showStoredSteps(shown_, live_);
        }
        logs_->clear();
        appendStoredLogs(shown_.logs, logs_);
        logs_->flush();
        shown_.rank0Steps.clear();
        shown_.system.clear();
        shown_.logs.clear();
        Q_EMIT loaded();
    });
}

PastRun::~PastRun() { watcher_.waitForFinished(); }

void PastRun::load(const QString& dbPath, qint64 runId)
{
    if (watcher_.isRunning()) {
        pendingPath_ = dbPath;
        pendingRun_ = runId;
        return;
    }
    watcher_.setFuture(QtConcurrent::run(app::workPool(), [dbPath, runId] {
        StoredRun run = readStoredRun(dbPath, runId);
        if (!run.error.isEmpty()) run.row.id = runId; // the page names the run it could not read
        return run;
    }));
}

} // namespace sb::gui
