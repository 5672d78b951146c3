#include "run_controller.hpp"

#include "history/store_access.hpp"
#include "hosts/host_catalog.hpp"
#include "jobs/work_pool.hpp"
#include "run/preflight.hpp"
#include "session/attached_run.hpp"
#include "session/gui_host_key_policy.hpp"
#include "session/run_session.hpp"
#include "settings/cluster_settings.hpp"
#include "settings/run_settings.hpp"

#include "launch/detach/detached_launch.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::gui {

using app::ClusterSettings;
using app::HostCatalog;
using app::LaunchRequest;
using app::RunSettings;
using app::StoreAccess;
using app::workPool;

RunController::RunController(StoreAccess* store, HostCatalog* hosts, GuiHostKeyPolicy* policy, QObject* parent)
    : QObject(parent), store_(store), hosts_(hosts), policy_(policy), preflight_(new app::Preflight(policy, this))
{
    connect(preflight_, &app::Preflight::finished, this, &RunController::onPreflightFinished);
    connect(&detachedLaunch_, &QFutureWatcher<QPair<QString, qint64>>::finished, this, &RunController::onDetachedLaunched);
}

RunController::~RunController()
{
    // A detached launch under way finishes (the host key policy refuses any
    // question once the window closes): its run lives on where it started.
    detachedLaunch_.waitForFinished();
    // A supervised run's ranks must not outlive the workbench: its supervisor
    // kills them. An attached run only loses its follower.
    session_.reset();
    attached_.reset();
}

app::Preflight::Environment RunController::environment() const
{
    app::Preflight::Environment e;
    e.ssh = hosts_->sshOptions();
    e.localCore = RunSettings::resolvedCorePath();
    e.probe.remoteCore = ClusterSettings::remoteCore.value();
    e.probe.remoteDir = ClusterSettings::remoteDir.value();
    e.thisMachine = launch::MachineFacts::ofThisMachine();
    return e;
}

void RunController::setState(State s)
{
    if (s == state_) return;
    state_ = s;
    Q_EMIT stateChanged(s);
}

QString RunController::lastError() const
{
    switch (refusal_) {
    case Refusal::None: return {};
    case Refusal::ChecksFailed: return tr("The pre-flight checks failed; nothing was started.");
    case Refusal::StoreUnavailable: return tr("The run store %1 cannot be opened: %2").arg(store_->path(), refusalDetail_);
    case Refusal::NotRecorded: return tr("The run cannot be recorded: %1").arg(refusalDetail_);
    case Refusal::NotStarted: return tr("The detached run did not start: %1").arg(refusalDetail_);
    case Refusal::CannotAttach: return tr("Cannot attach to the run: %1").arg(refusalDetail_);
    case Refusal::Busy: return tr("A run launched from the workbench is in progress; stop it or wait for it to end first.");
    case Refusal::Following:
        return tr("Run %1 is being followed in the Run area; detach from it or stop it first.").arg(refusalDetail_);
    }
    return {};
}

void RunController::refuse(Refusal why, const QString& detail)
{
    refusal_ = why;
    refusalDetail_ = detail;
    setState(State::Idle);
    Q_EMIT launchRefused();
}

void RunController::check(const LaunchRequest& request)
{
    if (state_ != State::Idle) return;
    memoryOverridable_ = false;
    launchAfterCheck_ = false;
    refusal_ = Refusal::None;
    setState(State::Checking);
    preflight_->run(request, environment());
}

bool RunController::launch(const LaunchRequest& request)
{
    if (state_ != State::Idle) {
        const bool following = attached_ && !attached_->isFinished();
        refusal_ = following ? Refusal::Following : Refusal::Busy;
        refusalDetail_ = following ? QString::number(attached_->runId()) : QString();
        Q_EMIT launchRefused();
        return false;
    }
    memoryOverridable_ = false;
    launchAfterCheck_ = true;
    refusal_ = Refusal::None;
    setState(State::Checking);
    preflight_->run(request, environment());
    return true;
}

void RunController::launchDespiteMemoryEstimate()
{
    if (state_ != State::Idle || !memoryOverridable_ || !preflight_->onlyMemoryFailed()) return;
    memoryOverridable_ = false;
    refusal_ = Refusal::None;
    startSession();
}

void RunController::stop()
{
    if (state_ == State::Checking) {
        launchAfterCheck_ = false;
        preflight_->cancel();
        return;
    }
    if (state_ != State::Running) return;
    if (session_ && !session_->isFinished()) session_->stop();
    else if (attached_ && !attached_->isFinished()) attached_->stop();
}

bool RunController::supervisesRun() const { return session_ && !session_->isFinished(); }

bool RunController::attach(qint64 runId)
{
    if (state_ == State::Checking || state_ == State::Launching || supervisesRun()) {
        refusal_ = Refusal::Busy;
        refusalDetail_.clear();
        Q_EMIT launchRefused();
        return false;
    }
    QString error;
    std::shared_ptr<store::SqliteRunStore> writer = store_->writer(&error);
    if (!writer) {
        refuse(Refusal::StoreUnavailable, error);
        return false;
    }
    if (attached_) {
        attached_->disconnect(this);
        attached_->detach();
        attached_.release()->deleteLater(); // its views may still point at it this turn
    }
    auto run = std::make_unique<AttachedRun>(store_->path(), writer, runId, policy_);
    if (!run->ok()) {
        refuse(Refusal::CannotAttach, run->error());
        return false;
    }
    attached_ = std::move(run);
    AttachedRun* a = attached_.get();
    connect(a, &AttachedRun::finished, this, [this, a] {
        setState(State::Idle);
        store_->notifyRunsChanged();
        Q_EMIT attachFinished(a);
    });
    connect(a, &AttachedRun::statusChanged, this, [this](store::RunStatus st) {
        if (store::isFinal(st)) store_->notifyRunsChanged();
    });
    refusal_ = Refusal::None;
    setState(State::Running);
    Q_EMIT attachStarted(a);
    a->start();
    store_->notifyRunsChanged();
    return true;
}

void RunController::detach()
{
    if (attached_ && !attached_->isFinished()) attached_->detach();
}

bool RunController::stopAndWait(int timeoutMs)
{
    if (state_ == State::Checking) stop();
    if (!session_ || session_->isFinished()) return true;
    session_->stop();
    QElapsedTimer clock;
    clock.start();
    bool forced = false;
    while (!session_->isFinished() && clock.elapsed() < timeoutMs) {
        // Past the grace, do not wait any longer for ranks to leave on their own.
        if (!forced && clock.elapsed() > session_->launch().config.stopGraceMs + 500) {
            session_->stop();
            forced = true;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return session_->isFinished();
}

void RunController::onPreflightFinished(bool passed)
{
    memoryOverridable_ = false;
    if (!passed) {
        if (!launchAfterCheck_) {
            setState(State::Idle);
            return;
        }
        refuse(Refusal::ChecksFailed);
        if (preflight_->onlyMemoryFailed()) {
            memoryOverridable_ = true;
            Q_EMIT memoryOverrideRequested();
        }
        return;
    }
    if (!launchAfterCheck_) {
        setState(State::Idle);
        return;
    }
    startSession();
}

void RunController::startSession()
{
    QString error;
    std::shared_ptr<store::SqliteRunStore> writer = store_->writer(&error);
    if (!writer) {
        refuse(Refusal::StoreUnavailable, error);
        return;
    }
    if (preflight_->request().detach) {
        startDetached();
        return;
    }
    if (session_) session_.release()->deleteLater(); // its views may still point at it this turn
    if (attached_) attached_.release()->deleteLater(); // no longer shown (it has finished following)
    session_ = std::make_unique<RunSession>(preflight_->prepared().result.launch, writer, policy_, preflight_->predictedPeaks());
    if (!session_->ok()) {
        const QString why = session_->error();
        session_.reset();
        refuse(Refusal::NotRecorded, why);
        return;
    }
    RunSession* s = session_.get();
    connect(s, &RunSession::finished, this, [this, s] {
        setState(State::Idle);
        store_->notifyRunsChanged();
        Q_EMIT sessionFinished(s);
    });
    setState(State::Running);
    Q_EMIT sessionStarted(s);
    s->start();
    store_->notifyRunsChanged();
}

} // namespace sb::gui

namespace sb::gui {

void RunController::startDetached()
{
    QString error;
    std::shared_ptr<store::SqliteRunStore> writer = store_->writer(&error);
    if (!writer) {
        refuse(Refusal::StoreUnavailable, error);
        return;
    }
    const launch::PreparedLaunch prepared = preflight_->prepared().result.launch;
    // The command line's defaults: runs beside the store, Slurm's on the shared file system.
    const launch::DetachOptions options = launch::defaultDetachOptions(prepared, store_->path());
    launch::HostKeyPolicy* policy = policy_;
    setState(State::Launching);
    // Blocking work (SSH, files, the supervisor's start): off the GUI thread.
    detachedLaunch_.setFuture(QtConcurrent::run(workPool(), [prepared, options, writer, policy] {
        launch::DetachedRun run;
        const QString why = launch::launchDetached(prepared, options, *writer, *policy, &run);
        return qMakePair(why, run.runId);
    }));
}

void RunController::onDetachedLaunched()
{
    const auto [why, runId] = detachedLaunch_.result();
    store_->notifyRunsChanged();
    setState(State::Idle);
    if (!why.isEmpty()) {
        refuse(Refusal::NotStarted, why);
        return;
    }
    attach(runId);
}

} // namespace sb::gui
