// A detached run the workbench follows: the launcher's AttachSession (one
// stream to where the run lives, exactly-once ingest into the run store,
// reconnects with back-off) feeding the same view-models as a run the
// workbench supervises, so the Run area draws the backlog and then the live
// steps alike (what the store holds already is drawn first). Closing it detaches; the run goes on. Stop runs the
// supervisor's `stop` off the GUI thread; the stream then sees the run end.
#pragma once

#include "launch/detach/attach_session.hpp"
#include "launch/failure_analysis.hpp"
#include "store/sqlite_run_store.hpp"

#include <QObject>
#include <QSet>

#include <memory>

namespace sb::gui {

class LiveRunModel;
class RunLogModel;

class AttachedRun : public QObject {
    Q_OBJECT
public:
    // Opens the session for run `runId` of the store at `dbPath`; see ok().
    AttachedRun(const QString& dbPath, std::shared_ptr<store::SqliteRunStore> store, qint64 runId,
                launch::HostKeyPolicy* policy, QObject* parent = nullptr);
    ~AttachedRun() override; // detaches

    // False when the run cannot be attached to (see error()).
    bool ok() const { return session_ != nullptr; }
    QString error() const { return error_; }
    void start();
    // Stops following; the run goes on.
    void detach();
    // Asks the run to stop (again: without the grace). stopFailed() if it could not be reached.
    void stop();
    // Only rank 0's log is followed live: fetches rank `rank`'s (its stored
    // lines first, then what the run directory has beyond them). Again later:
    // only what was written since. rankLogFetched() when done.
    void fetchRankLog(int rank);
    bool isFetchingLog() const { return logFetch_ != nullptr; }

    bool isFinished() const { return finished_; }
    bool isStopping() const { return stopRequests_ > 0 && !finished_; }
    bool isConnected() const { return connected_; }
    store::RunStatus status() const { return status_; }
    QString reason() const { return reason_.text; } // English
    const launch::CodedReason& codedReason() const { return reason_; }
    // Why following ended without the run ending ("" when it ended or was detached).
    QString followError() const { return followError_; }

    qint64 runId() const { return row_.id; }
    const store::RunRow& row() const { return row_; }
    QString where() const;   // "this machine: DIR" or "HOST:DIR"
    LiveRunModel* live() const { return live_; }
    RunLogModel* logs() const { return logs_; }

Q_SIGNALS:
    void statusChanged(sb::store::RunStatus status, const sb::launch::CodedReason& reason);
    // A step the stream brought (catch-up or live), as the live model got it.
    void stepReported(const sb::protocol::StepMetrics& step);
    void connectionChanged(bool connected, const QString& why);
    void stopFailed(const QString& error);
    void rankLogFetched(int rank, const QString& error);
    // Following ended: the run ended (followError() empty), the workbench
    // detached, or the run could not be reached.
    void finished();

private:
    void connectSession();
    void loadBacklog(const QString& dbPath);
    void nextLogFetch();

    std::shared_ptr<store::SqliteRunStore> store_;
    std::unique_ptr<launch::AttachSession> session_;
    store::RunRow row_;
    QString dbPath_;
    launch::HostKeyPolicy* policy_;
    std::unique_ptr<launch::AttachSession> logFetch_;
    int fetchingRank_ = -1;
    QList<int> logFetchQueue_;
    QSet<int> ranksWithLogs_; // ranks whose stored lines are in the model
    LiveRunModel* live_;
    RunLogModel* logs_;
    store::RunStatus status_ = store::RunStatus::Running;
    launch::CodedReason reason_;
    QString error_;
    QString followError_;
    int stopRequests_ = 0;
    bool connected_ = false;
    bool finished_ = false;
};

} // namespace sb::gui
