#include "run/run_service.hpp"

#include "jobs/work_pool.hpp"

#include "launch/backend_factory.hpp"
#include "launch/detach/detached_launch.hpp"
#include "launch/slurm/sbatch_script.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::app {

SupervisedRun::SupervisedRun(const launch::PreparedLaunch& launch, std::shared_ptr<store::SqliteRunStore> store,
                             launch::HostKeyPolicy* policy)
    : store_(std::move(store))
{
    const launch::BackendKind kind = launch.config.backend();
    supervisor_ = std::make_unique<launch::RunSupervisor>(launch, [kind, policy] { return launch::makeBackend(kind, policy); });
    recorder_ = std::make_unique<launch::RunRecorder>(*store_, *supervisor_);
}

SupervisedRun::~SupervisedRun()
{
    // The recorder disconnects from the supervisor; the supervisor kills what is left.
    recorder_.reset();
    supervisor_.reset();
}

void SupervisedRun::stop(const FailureReason& why)
{
    if (isFinished()) return;
    if (stopRequests_++ == 0) supervisor_->cancel(why);
    else supervisor_->forceStop();
}

RunService::RunService(QString storePath, StoreOpener openStore, launch::HostKeyPolicy* policy, QObject* parent)
    : QObject(parent), storePath_(std::move(storePath)), openStore_(std::move(openStore)), policy_(policy),
      preflight_(new Preflight(policy, this))
{
    connect(preflight_, &Preflight::finished, this, &RunService::onPreflightFinished);
    connect(&detachedLaunch_, &QFutureWatcher<QPair<QString, launch::DetachedRun>>::finished, this, &RunService::onDetachedLaunched);
}

RunService::~RunService()
{
    // A detached launch under way finishes (the host key policy refuses any
    // question once its front end is gone): the run lives on where it started.
    detachedLaunch_.waitForFinished();
}

void RunService::setState(State s)
{
    if (s == state_) return;
    state_ = s;
    Q_EMIT stateChanged(s);
}

void RunService::refuse(Refusal why, const QString& detail, const QStringList& lines)
{
    refusal_ = why;
    refusalDetail_ = detail;
    refusalLines_ = lines;
    setState(State::Idle);
    Q_EMIT launchRefused(why);
}

void RunService::check(const LaunchRequest& request, const Preflight::Environment& environment)
{
    if (state_ != State::Idle) return;
    memoryOverridable_ = false;
    launchAfterCheck_ = false;
    refusal_ = Refusal::None;
    setState(State::Checking);
    preflight_->run(request, environment);
}

bool RunService::launch(const LaunchRequest& request, const Preflight::Environment& environment)
{
    if (state_ != State::Idle) {
        refusal_ = Refusal::Busy;
        refusalDetail_.clear();
        refusalLines_.clear();
        Q_EMIT launchRefused(Refusal::Busy);
        return false;
    }
    memoryOverridable_ = false;
    launchAfterCheck_ = true;
    refusal_ = Refusal::None;
    setState(State::Checking);
    preflight_->run(request, environment);
    return true;
}

void RunService::launchDespiteMemoryEstimate()
{
    if (state_ != State::Idle || !memoryOverridable_ || !preflight_->onlyMemoryFailed()) return;
    memoryOverridable_ = false;
    refusal_ = Refusal::None;
    startChecked();
}

void RunService::stop(const FailureReason& why)
{
    if (state_ == State::Checking) {
        launchAfterCheck_ = false;
        preflight_->cancel();
        return;
    }
    if (supervisesRun()) supervised_->stop(why);
}

bool RunService::stopAndWait(int timeoutMs, const FailureReason& why)
{
    if (state_ == State::Checking) stop(why);
    if (!supervisesRun()) return true;
    const std::shared_ptr<SupervisedRun> run = supervised_;
    run->stop(why);
    QElapsedTimer clock;
    clock.start();
    bool forced = false;
    while (!run->isFinished() && clock.elapsed() < timeoutMs) {
        // Past the grace, do not wait any longer for ranks to leave on their own.
        if (!forced && clock.elapsed() > run->launch().config.stopGraceMs + 500) {
            run->stop(why);
            forced = true;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return run->isFinished();
}

void RunService::onPreflightFinished(bool passed)
{
    memoryOverridable_ = false;
    if (!launchAfterCheck_) {
        setState(State::Idle);
        return;
    }
    if (!passed) {
        refuse(Refusal::ChecksFailed);
        if (preflight_->onlyMemoryFailed()) {
            memoryOverridable_ = true;
            Q_EMIT memoryOverrideRequested();
        }
        return;
    }
    startChecked();
}

void RunService::startChecked()
{
    Result<std::shared_ptr<store::SqliteRunStore>> writer = openStore_();
    if (!writer) {
        refuse(Refusal::StoreUnavailable, qtMessage(writer));
        return;
    }
    if (preflight_->request().detach) startDetached(std::move(writer).value());
    else startSupervised(std::move(writer).value());
}

void RunService::startSupervised(std::shared_ptr<store::SqliteRunStore> writer)
{
    auto run = std::make_shared<SupervisedRun>(preflight_->prepared().result.launch, std::move(writer), policy_);
    if (!run->ok()) {
        refuse(Refusal::NotRecorded, run->error());
        return;
    }
    supervised_ = run;
    SupervisedRun* r = run.get();
    connect(&r->supervisor(), &launch::RunSupervisor::finished, this, [this, r] {
        // Finished signals of an earlier run reach only its holders.
        if (supervised_.get() == r) setState(State::Idle);
    });
    setState(State::Running);
    Q_EMIT supervisedStarting(run);
    run->start();
}

void RunService::startDetached(std::shared_ptr<store::SqliteRunStore> writer)
{
    const launch::PreparedLaunch prepared = preflight_->prepared().result.launch;
    const launch::DetachOptions options = detachOptions(preflight_->request(), prepared, storePath_);
    if (prepared.config.backend() == launch::BackendKind::Slurm) {
        // What the batch script cannot carry is refused before anything is written.
        const auto bad = launch::batchScriptProblems(prepared, launch::slurmRunRoot(prepared, options.runRoot) + QLatin1Char('/') + prepared.uid);
        if (!bad.empty()) {
            refuse(Refusal::NotDetachable, {}, launch::runConfigMessages(bad));
            return;
        }
    }
    launch::HostKeyPolicy* policy = policy_;
    setState(State::Launching);
    // Blocking work (SSH, files, the supervisor's start): off the caller's thread.
    detachedLaunch_.setFuture(QtConcurrent::run(workPool(), [prepared, options, writer, policy] {
        launch::DetachedRun run;
        const Status started = launch::launchDetached(prepared, options, *writer, *policy, &run);
        return qMakePair(qtMessage(started), run);
    }));
}

void RunService::onDetachedLaunched()
{
    const auto [why, run] = detachedLaunch_.result();
    if (!why.isEmpty()) {
        refuse(Refusal::NotStarted, why);
        return;
    }
    setState(State::Idle);
    Q_EMIT detachedStarted(run);
}

} // namespace sb::app
