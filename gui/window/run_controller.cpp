#include "run_controller.hpp"

#include "history/store_access.hpp"
#include "hosts/host_catalog.hpp"
#include "session/attached_run.hpp"
#include "session/gui_host_key_policy.hpp"
#include "session/run_session.hpp"
#include "settings/cluster_settings.hpp"
#include "settings/run_settings.hpp"

namespace sb::gui {

using app::ClusterSettings;
using app::HostCatalog;
using app::LaunchRequest;
using app::RunService;
using app::RunSettings;
using app::StoreAccess;

namespace {
// The reason stored with a run stopped here: in English, like the launcher's.
const FailureReason kStopped{FailureCode::CancelledFromWorkbench, {}};
} // namespace

RunController::RunController(StoreAccess* store, HostCatalog* hosts, GuiHostKeyPolicy* policy, QObject* parent)
    : QObject(parent), store_(store), hosts_(hosts), policy_(policy),
      service_(new RunService(store->path(), [store] { return store->writer(); }, policy, this)),
      alerts_(new launch::RunAlerts(this))
{
    connect(service_, &RunService::stateChanged, this, &RunController::onServiceState);
    connect(service_, &RunService::launchRefused, this, &RunController::onServiceRefused);
    connect(service_, &RunService::memoryOverrideRequested, this, &RunController::memoryOverrideRequested);
    connect(service_, &RunService::supervisedStarting, this, &RunController::onSupervisedStarting);
    connect(service_, &RunService::detachedStarted, this, [this](const launch::DetachedRun& run) {
        store_->notifyRunsChanged();
        attach(run.runId);
    });
}

RunController::~RunController()
{
    // A supervised run's ranks must not outlive the workbench: the service's
    // supervisor kills them when it goes (after this). An attached run only
    // loses its follower.
    session_.reset();
    attached_.reset();
}

Result<app::Preflight::Environment> RunController::environment() const
{
    app::Preflight::Environment e;
    Result<launch::SshOptions> ssh = hosts_->sshOptions();
    if (!ssh) return ssh.status();
    e.ssh = std::move(ssh).value();
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

void RunController::onServiceState(RunService::State s)
{
    switch (s) {
    case RunService::State::Idle:
        // Following a detached run is this controller's, not the service's.
        setState(attached_ && !attached_->isFinished() ? State::Running : State::Idle);
        break;
    case RunService::State::Checking: setState(State::Checking); break;
    case RunService::State::Launching: setState(State::Launching); break;
    case RunService::State::Running: setState(State::Running); break;
    }
}

QString RunController::lastError() const
{
    switch (refusal_) {
    case Refusal::None: return {};
    case Refusal::ChecksFailed: return tr("The pre-flight checks failed; nothing was started.");
    case Refusal::StoreUnavailable: return tr("The run store %1 cannot be opened: %2").arg(store_->path(), refusalDetail_);
    case Refusal::SshConfigUnwritable: return tr("The SSH config for the hosts added by hand cannot be written: %1").arg(refusalDetail_);
    case Refusal::NotRecorded: return tr("The run cannot be recorded: %1").arg(refusalDetail_);
    case Refusal::NotDetachable: return tr("The run cannot be detached: %1").arg(refusalDetail_);
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
    if (!(attached_ && !attached_->isFinished())) setState(State::Idle);
    Q_EMIT launchRefused();
}

void RunController::onServiceRefused(RunService::Refusal why)
{
    switch (why) {
    case RunService::Refusal::None: return;
    case RunService::Refusal::ChecksFailed: refuse(Refusal::ChecksFailed); return;
    case RunService::Refusal::StoreUnavailable: refuse(Refusal::StoreUnavailable, service_->refusalDetail()); return;
    case RunService::Refusal::NotRecorded: refuse(Refusal::NotRecorded, service_->refusalDetail()); return;
    case RunService::Refusal::NotDetachable: refuse(Refusal::NotDetachable, service_->refusalLines().join(QStringLiteral("; "))); return;
    case RunService::Refusal::NotStarted:
        store_->notifyRunsChanged(); // the run it recorded, failed
        refuse(Refusal::NotStarted, service_->refusalDetail());
        return;
    case RunService::Refusal::Busy: refuse(Refusal::Busy); return;
    }
}

void RunController::check(const LaunchRequest& request)
{
    if (state_ != State::Idle) return;
    refusal_ = Refusal::None;
    service_->setStorePath(store_->path());
    const Result<app::Preflight::Environment> env = environment();
    if (!env) {
        refuse(Refusal::SshConfigUnwritable, qtMessage(env));
        return;
    }
    service_->check(request, env.value());
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
    refusal_ = Refusal::None;
    service_->setStorePath(store_->path());
    const Result<app::Preflight::Environment> env = environment();
    if (!env) {
        refuse(Refusal::SshConfigUnwritable, qtMessage(env));
        return false;
    }
    return service_->launch(request, env.value());
}

void RunController::launchDespiteMemoryEstimate()
{
    if (state_ != State::Idle) return;
    refusal_ = Refusal::None;
    service_->launchDespiteMemoryEstimate();
}

void RunController::stop()
{
    if (service_->state() == RunService::State::Checking || service_->supervisesRun()) service_->stop(kStopped);
    else if (state_ == State::Running && attached_ && !attached_->isFinished()) attached_->stop();
}

bool RunController::supervisesRun() const { return service_->supervisesRun(); }

bool RunController::attach(qint64 runId)
{
    if (state_ == State::Checking || state_ == State::Launching || supervisesRun()) {
        refusal_ = Refusal::Busy;
        refusalDetail_.clear();
        Q_EMIT launchRefused();
        return false;
    }
    Result<std::shared_ptr<store::SqliteRunStore>> opened = store_->writer();
    if (!opened) {
        refuse(Refusal::StoreUnavailable, qtMessage(opened));
        return false;
    }
    std::shared_ptr<store::SqliteRunStore> writer = std::move(opened).value();
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
    alerts_->watch(runId, a->row().name);
    connect(a, &AttachedRun::stepReported, alerts_, &launch::RunAlerts::log);
    connect(a, &AttachedRun::finished, this, [this, a] {
        // The end once everything is in (a catch-up brings the final state
        // before the last steps); detached from it, it is no longer watched here.
        if (store::isFinal(a->status())) alerts_->setStatus(a->status(), a->reason());
        else alerts_->forget();
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

bool RunController::stopAndWait(int timeoutMs) { return service_->stopAndWait(timeoutMs, kStopped); }

void RunController::onSupervisedStarting(const std::shared_ptr<app::SupervisedRun>& run)
{
    if (session_) session_.release()->deleteLater(); // its views may still point at it this turn
    if (attached_) attached_.release()->deleteLater(); // no longer shown (it has finished following)
    session_ = std::make_unique<RunSession>(run, service_->preflight()->predictedPeaks());
    RunSession* s = session_.get();
    alerts_->watchSupervised(run->supervisor(), run->runId(), run->launch().config.name);
    // After the session has flushed its logs.
    connect(s, &RunSession::finished, this, [this, s] {
        store_->notifyRunsChanged();
        Q_EMIT sessionFinished(s);
    });
    Q_EMIT sessionStarted(s);
    store_->notifyRunsChanged();
}

} // namespace sb::gui
