// One run launched from the workbench: the launcher's supervisor driving the
// backend, its recorder writing into the run store, and the view-models the
// Run area shows (live series, logs). Stop once to cancel (SIGTERM, then
// SIGKILL after the grace); stop again to skip the grace.
#pragma once

#include "launch/run_recorder.hpp"
#include "launch/run_supervisor.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/sqlite_run_store.hpp"

#include <QObject>

#include <memory>
#include <vector>

namespace sb::gui {

class LiveRunModel;
class RunLogModel;

class RunSession : public QObject {
    Q_OBJECT
public:
    // `predictedPeaks`: the estimator's peak per rank for this plan (may be empty).
    RunSession(const launch::PreparedLaunch& launch, std::shared_ptr<store::SqliteRunStore> store,
               launch::HostKeyPolicy* policy, const std::vector<qint64>& predictedPeaks, QObject* parent = nullptr);
    ~RunSession() override;

    // False when the run could not be recorded (see error()).
    bool ok() const { return recorder_->ok(); }
    QString error() const { return recorder_->error(); }
    void start();
    void stop();
    bool isFinished() const { return supervisor_->isFinished(); }
    bool isStopping() const { return stopRequests_ > 0 && !isFinished(); }
    store::RunStatus status() const { return status_; }
    QString reason() const { return reason_.text; } // English
    const launch::CodedReason& codedReason() const { return reason_; }

    qint64 runId() const { return recorder_->runId(); }
    const launch::PreparedLaunch& launch() const { return supervisor_->launch(); }
    launch::RunSupervisor* supervisor() const { return supervisor_.get(); }
    LiveRunModel* live() const { return live_; }
    RunLogModel* logs() const { return logs_; }

Q_SIGNALS:
    void statusChanged(sb::store::RunStatus status, const sb::launch::CodedReason& reason);
    void finished(const sb::launch::RunOutcome& outcome);

private:
    std::shared_ptr<store::SqliteRunStore> store_;
    std::unique_ptr<launch::RunSupervisor> supervisor_;
    std::unique_ptr<launch::RunRecorder> recorder_;
    LiveRunModel* live_;
    RunLogModel* logs_;
    store::RunStatus status_ = store::RunStatus::Starting;
    launch::CodedReason reason_;
    int stopRequests_ = 0;
};

} // namespace sb::gui
