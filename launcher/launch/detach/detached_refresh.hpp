// Catching up with every detached run of a store that has not ended, one
// run after another, so that the store shows the cluster's truth (running,
// restarting, failed with its reason, completed) without following any of
// them: each is attached with `follow = false` and no logs. A run whose
// supervisor is gone is reconciled (marked failed) by its ingestor. The CLI's
// `runs --refresh` and the workbench's Runs area both use it.
#pragma once

#include "attach_session.hpp"

#include <QObject>
#include <QStringList>

#include <memory>

namespace sb::launch {

class DetachedRefresh final : public QObject {
    Q_OBJECT
public:
    DetachedRefresh(QString dbPath, store::RunStore& store, HostKeyPolicy* policy, QObject* parent = nullptr);
    ~DetachedRefresh() override;

    // The detached runs of `runs` that have not ended: those to refresh.
    static QList<qint64> pendingRuns(const QList<store::RunRow>& runs);
    // Refreshes `runs` one after another; finished() follows (queued, at
    // once for none). Ignored while running.
    void start(const QList<qint64>& runs);
    bool isRunning() const { return running_; }
    // Stops after the run being refreshed now.
    void cancel();

Q_SIGNALS:
    // `error`: why the run could not be reached ("" when it was caught up).
    void runRefreshed(qint64 run, const QString& error);
    // Every run was tried; `errors` names those that could not be reached.
    void finished(const QStringList& errors);

private:
    void next();

    const QString dbPath_;
    store::RunStore& store_;
    HostKeyPolicy* policy_;
    QList<qint64> queue_;
    std::unique_ptr<AttachSession> current_;
    qint64 currentRun_ = -1;
    QStringList errors_;
    bool running_ = false;
};

} // namespace sb::launch
