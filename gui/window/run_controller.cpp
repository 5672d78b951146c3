#include "run_controller.hpp"

#include "session/cluster_settings.hpp"
#include "session/gui_host_key_policy.hpp"
#include "session/host_catalog.hpp"
#include "session/run_session.hpp"
#include "session/run_settings.hpp"
#include "session/store_access.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace sb::gui {

RunController::RunController(StoreAccess* store, HostCatalog* hosts, GuiHostKeyPolicy* policy, QObject* parent)
    : QObject(parent), store_(store), hosts_(hosts), policy_(policy), preflight_(new Preflight(policy, this))
{
    connect(preflight_, &Preflight::finished, this, &RunController::onPreflightFinished);
}

RunController::~RunController()
{
    // Ranks must not outlive the workbench: the session's supervisor kills them.
    session_.reset();
}

Preflight::Environment RunController::environment() const
{
    Preflight::Environment e;
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

void RunController::launch(const LaunchRequest& request)
{
    if (state_ != State::Idle) return;
    memoryOverridable_ = false;
    launchAfterCheck_ = true;
    refusal_ = Refusal::None;
    setState(State::Checking);
    preflight_->run(request, environment());
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
    if (state_ == State::Running && session_) session_->stop();
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
    if (session_) session_.release()->deleteLater(); // its views may still point at it this turn
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
