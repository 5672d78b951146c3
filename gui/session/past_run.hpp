// One past run of the store, for the Runs area's page of a run: read off the
// GUI thread (StoredRun: steps, every rank's memory, logs, checkpoints), then
// held in the same view-models a live run fills, so its page draws it with
// the Run area's views. The newest request wins; one asked for while a read
// runs is read when that read is done.
#pragma once

#include "stored_run.hpp"

#include <QFutureWatcher>
#include <QObject>

namespace sb::gui {

class LiveRunModel;
class RunLogModel;

class PastRun : public QObject {
    Q_OBJECT
public:
    explicit PastRun(QObject* parent = nullptr);
    ~PastRun() override;

    void load(const QString& dbPath, qint64 runId);
    bool isLoading() const { return watcher_.isRunning(); }
    // The run shown (after loaded()); -1 before the first.
    qint64 runId() const { return shown_.row.id; }
    const StoredRun& run() const { return shown_; }
    LiveRunModel* live() const { return live_; }
    RunLogModel* logs() const { return logs_; }

Q_SIGNALS:
    void loaded();

private:
    QFutureWatcher<StoredRun> watcher_;
    StoredRun shown_;
    LiveRunModel* live_;
    RunLogModel* logs_;
    QString pendingPath_;
    qint64 pendingRun_ = -1;
};

} // namespace sb::gui
