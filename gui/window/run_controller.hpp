// Launching and stopping runs from the workbench, through the app's run
// service that the command line uses too: a launch request goes through the
// pre-flight checks, then, when every check passed, becomes a supervised run
// recording into the run store, shown through a RunSession. A detached launch
// starts the run where it lives and attaches to it (AttachedRun); a detached
// run from the history can be attached to later. One run at a time; the last
// one stays on screen until the next launch. Closing the workbench stops a
// supervised run and only detaches from an attached one.
#pragma once

#include "run/launch_request.hpp"
#include "run/preflight.hpp"
#include "launch/run_alerts.hpp"
#include "run/run_service.hpp"

#include <QObject>

#include <memory>

namespace sb::app {
class HostCatalog;
class StoreAccess;
} // namespace sb::app

namespace sb::gui {

class GuiHostKeyPolicy;
class AttachedRun;
class RunSession;

class RunController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Checking, Launching, Running };

    RunController(app::StoreAccess* store, app::HostCatalog* hosts, GuiHostKeyPolicy* policy, QObject* parent = nullptr);
    ~RunController() override;

    // Busy and Following refuse a launch at once and leave what is going on as it is;
    // the others end the launch (or attach) under way.
    enum class Refusal { None, ChecksFailed, StoreUnavailable, SshConfigUnwritable, NotRecorded, NotDetachable, NotStarted, CannotAttach, Busy, Following };

    State state() const { return state_; }
    app::Preflight* preflight() const { return service_->preflight(); }
    RunSession* session() const { return session_.get(); }
    // A run launched from the workbench (not detached) is going: closing stops it.
    bool supervisesRun() const;
    AttachedRun* attached() const { return attached_.get(); }
    // Why the last launch did not start, in the current language.
    Refusal refusal() const { return refusal_; }
    QString lastError() const;

    // The pre-flight checks only.
    void check(const app::LaunchRequest& request);
    // The checks, then the launch when they pass. One run at a time: while
    // another is checked, started, supervised or followed, the launch is
    // refused at once (false, launchRefused() with Busy or Following), never
    // kept to start when that one ends.
    bool launch(const app::LaunchRequest& request);
    // After memoryOverrideRequested(): the user confirmed launching the plan
    // whose estimated peak does not fit; it starts as checked.
    void launchDespiteMemoryEstimate();
    // Cancels the checks, or stops the run (again: without the grace).
    void stop();
    // Follows detached run `runId` of the store in the Run area (after
    // detaching from the one followed before). False, with lastError(),
    // while a supervised run is going or when the run cannot be attached to.
    bool attach(qint64 runId);
    // Stops following the attached run; it goes on.
    void detach();
    // Stops a running run and waits (running the event loop) until it has
    // ended and is recorded; false when it has not within `timeoutMs`.
    bool stopAndWait(int timeoutMs);

    // Or why the SSH config of the hosts added by hand cannot be written.
    Result<app::Preflight::Environment> environment() const;
    // The alerts of the run shown (supervised or followed).
    launch::RunAlerts* alerts() const { return alerts_; }

Q_SIGNALS:
    void stateChanged(sb::gui::RunController::State state);
    void sessionStarted(sb::gui::RunSession* session);
    void sessionFinished(sb::gui::RunSession* session);
    void attachStarted(sb::gui::AttachedRun* run);
    // Following ended: the run ended, the workbench detached, or it cannot be reached.
    void attachFinished(sb::gui::AttachedRun* run);
    // The checks failed, or the run could not be recorded (see lastError()).
    void launchRefused();
    // A launch failed only its memory check: ask the user (Refuse by default)
    // and call launchDespiteMemoryEstimate() if they confirm.
    void memoryOverrideRequested();

private:
    void setState(State s);
    void refuse(Refusal why, const QString& detail = {});
    void onServiceState(app::RunService::State s);
    void onServiceRefused(app::RunService::Refusal why);
    void onSupervisedStarting(const std::shared_ptr<app::SupervisedRun>& run);

    app::StoreAccess* store_;
    app::HostCatalog* hosts_;
    GuiHostKeyPolicy* policy_;
    app::RunService* service_;
    launch::RunAlerts* alerts_;
    std::unique_ptr<RunSession> session_;
    std::unique_ptr<AttachedRun> attached_;
    State state_ = State::Idle;
    Refusal refusal_ = Refusal::None;
    QString refusalDetail_; // the store's or recorder's own words
};

} // namespace sb::gui
