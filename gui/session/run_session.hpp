// One run launched from the workbench: the app's supervised run (the
// launcher's supervisor driving the backend, its recorder writing into the
// run store) and the view-models the Run area shows (live series, logs).
// Stopping it is the run service's (RunController::stop).
#pragma once

#include "run/run_service.hpp"

#include <QObject>

#include <memory>
#include <vector>

namespace sb::gui {

class LiveRunModel;
class RunLogModel;

class RunSession : public QObject {
    Q_OBJECT
public:
    // `run` has not started yet. `predictedPeaks`: the estimator's peak per
    // rank for this plan (may be empty).
    RunSession(std::shared_ptr<app::SupervisedRun> run, const std::vector<qint64>& predictedPeaks, QObject* parent = nullptr);
    ~RunSession() override;

    QString error() const { return run_->error(); }
    bool isFinished() const { return run_->isFinished(); }
    bool isStopping() const { return run_->isStopping(); }
    store::RunStatus status() const { return status_; }
    QString reason() const { return reason_.text; } // English
    const launch::CodedReason& codedReason() const { return reason_; }

    qint64 runId() const { return run_->runId(); }
    const launch::PreparedLaunch& launch() const { return run_->launch(); }
    launch::RunSupervisor* supervisor() const { return &run_->supervisor(); }
    LiveRunModel* live() const { return live_; }
    RunLogModel* logs() const { return logs_; }

Q_SIGNALS:
    void statusChanged(sb::store::RunStatus status, const sb::launch::CodedReason& reason);
    void finished(const sb::launch::RunOutcome& outcome);

private:
    std::shared_ptr<app::SupervisedRun> run_;
    LiveRunModel* live_;
    RunLogModel* logs_;
    store::RunStatus status_ = store::RunStatus::Starting;
    launch::CodedReason reason_;
};

} // namespace sb::gui
