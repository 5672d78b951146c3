// Starting and stopping a run, the same for both front ends (the workbench's
// RunController and `shardbench-cli run`): the one pre-flight (Preflight),
// then either a run supervised by this process (the launcher's supervisor,
// recorded into the run store as it goes) or a detached one (launchDetached,
// off the caller's thread, its batch script checked first for Slurm). The
// first stop lets the ranks finish their step within the grace, a second one
// kills them. Following a detached run is launch::openAttachSession's, with
// the run id this service reports. One launch at a time: a launch while
// another is checked, started or supervised is refused at once, never kept.
#pragma once

#include "run/launch_request.hpp"
#include "run/preflight.hpp"

#include "launch/run_recorder.hpp"
#include "launch/run_supervisor.hpp"
#include "store/sqlite_run_store.hpp"

#include <QFutureWatcher>
#include <QObject>

#include <functional>
#include <memory>

namespace sb::app {

// A run supervised by this process and recorded into the store as it goes.
// Destroying it kills what is left of its ranks.
class SupervisedRun {
public:
    SupervisedRun(const launch::PreparedLaunch& launch, std::shared_ptr<store::SqliteRunStore> store, launch::HostKeyPolicy* policy);
    ~SupervisedRun();
    SupervisedRun(const SupervisedRun&) = delete;
    SupervisedRun& operator=(const SupervisedRun&) = delete;

    // False when the run could not be recorded (see error(); nothing started).
    bool ok() const { return recorder_->ok(); }
    QString error() const { return recorder_->error(); } // also a recording failure during the run
    qint64 runId() const { return recorder_->runId(); }
    launch::RunSupervisor& supervisor() const { return *supervisor_; }
    const launch::PreparedLaunch& launch() const { return supervisor_->launch(); }
    bool isFinished() const { return supervisor_->isFinished(); }
    bool isStopping() const { return stopRequests_ > 0 && !isFinished(); }

    void start() { supervisor_->start(); }
    // The first request ends the run as cancelled for `why` (recorded in
    // English); a later one skips the grace.
    void stop(const FailureReason& why);

private:
    std::shared_ptr<store::SqliteRunStore> store_;
    std::unique_ptr<launch::RunSupervisor> supervisor_;
    std::unique_ptr<launch::RunRecorder> recorder_;
    int stopRequests_ = 0;
};

class RunService : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Checking, Launching, Running };
    // Busy refuses a launch at once and leaves what is going on as it is; the
    // others end the launch under way. NotDetachable: a Slurm batch script
    // cannot carry the run (bad input, refusalLines() say what).
    enum class Refusal { None, ChecksFailed, StoreUnavailable, NotRecorded, NotDetachable, NotStarted, Busy };
    // The run store's writer; nullptr, with the reason, when it cannot be opened.
    using StoreOpener = std::function<Result<std::shared_ptr<store::SqliteRunStore>>()>;

    RunService(QString storePath, StoreOpener openStore, launch::HostKeyPolicy* policy, QObject* parent = nullptr);
    ~RunService() override; // waits for a detached launch under way; a supervised run's ranks are killed

    Preflight* preflight() const { return preflight_; }
    State state() const { return state_; }
    QString storePath() const { return storePath_; }
    // The store the next launch records into (the opener's), when it changed.
    void setStorePath(const QString& path) { storePath_ = path; }

    // The pre-flight checks only.
    void check(const LaunchRequest& request, const Preflight::Environment& environment);
    // The checks, then the launch when they pass; false (Busy) unless idle.
    bool launch(const LaunchRequest& request, const Preflight::Environment& environment);
    // After memoryOverrideRequested(): the user confirmed launching the plan
    // whose estimated peak does not fit; it starts as checked.
    void launchDespiteMemoryEstimate();
    // Cancels the checks, or stops the supervised run (see SupervisedRun::stop).
    void stop(const FailureReason& why);
    // Stops the supervised run and waits (running the event loop) until it
    // has ended and is recorded; false when it has not within `timeoutMs`.
    bool stopAndWait(int timeoutMs, const FailureReason& why);

    // The last supervised run (kept until the next launch; holders keep it longer).
    const std::shared_ptr<SupervisedRun>& supervised() const { return supervised_; }
    bool supervisesRun() const { return supervised_ && !supervised_->isFinished(); }

    Refusal refusal() const { return refusal_; }
    // The store's, recorder's or launcher's own words for the refusal (English).
    QString refusalDetail() const { return refusalDetail_; }
    QStringList refusalLines() const { return refusalLines_; }

Q_SIGNALS:
    void stateChanged(sb::app::RunService::State state);
    // Recorded, not yet started: connect to its supervisor now; it starts
    // when the handlers return.
    void supervisedStarting(const std::shared_ptr<sb::app::SupervisedRun>& run);
    // The detached run started where it lives; attach to follow it.
    void detachedStarted(const sb::launch::DetachedRun& run);
    void launchRefused(sb::app::RunService::Refusal why);
    // The checks of a launch failed only on the memory estimate: ask, and call
    // launchDespiteMemoryEstimate() if the user confirms.
    void memoryOverrideRequested();

private:
    void setState(State s);
    void refuse(Refusal why, const QString& detail = {}, const QStringList& lines = {});
    void onPreflightFinished(bool passed);
    void startChecked();
    void startSupervised(std::shared_ptr<store::SqliteRunStore> writer);
    void startDetached(std::shared_ptr<store::SqliteRunStore> writer);
    void onDetachedLaunched();

    QString storePath_;
    StoreOpener openStore_;
    launch::HostKeyPolicy* policy_;
    Preflight* preflight_;
    std::shared_ptr<SupervisedRun> supervised_;
    QFutureWatcher<QPair<QString, launch::DetachedRun>> detachedLaunch_; // why it did not start, the run
    State state_ = State::Idle;
    bool launchAfterCheck_ = false;
    bool memoryOverridable_ = false;
    Refusal refusal_ = Refusal::None;
    QString refusalDetail_;
    QStringList refusalLines_;
};

} // namespace sb::app
