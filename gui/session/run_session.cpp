#include "run_session.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"

#include "launch/backend_factory.hpp"

namespace sb::gui {

RunSession::RunSession(const launch::PreparedLaunch& launch, std::shared_ptr<store::SqliteRunStore> store,
                       launch::HostKeyPolicy* policy, const std::vector<qint64>& predictedPeaks, QObject* parent)
    : QObject(parent), store_(std::move(store)), live_(new LiveRunModel(this)), logs_(new RunLogModel(this))
{
    const launch::BackendKind kind = launch.config.backend();
    supervisor_ = std::make_unique<launch::RunSupervisor>(launch, [kind, policy] { return launch::makeBackend(kind, policy); });
    recorder_ = std::make_unique<launch::RunRecorder>(*store_, *supervisor_);
    live_->reset(launch.worldSize, launch.planSteps, predictedPeaks);
    supervisor_->addMetricsSink(live_);

    launch::RunSupervisor* s = supervisor_.get();
    connect(s, &launch::RunSupervisor::statusChanged, this, [this](store::RunStatus st, const launch::CodedReason& reason) {
        status_ = st;
        if (!reason.isEmpty() || store::isFinal(st)) reason_ = reason;
        Q_EMIT statusChanged(st, reason);
    });
    connect(s, &launch::RunSupervisor::progress, this,
            [this](const QString& line) { logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, supervisor_->attempt(), line); });
    connect(s, &launch::RunSupervisor::outputLine, this,
            [this](int attempt, int rank, launch::OutputStream stream, const QString& line) {
                logs_->append(rank, stream == launch::OutputStream::Stdout ? RunLogModel::Stdout : RunLogModel::Stderr, attempt, line);
            });
    connect(s, &launch::RunSupervisor::rankStarted, this, [this](int attempt, int rank, qint64 pid) {
        logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, attempt,
                      QStringLiteral("rank %1 started on %2 (pid %3)").arg(rank).arg(supervisor_->hostOfRank(rank)).arg(pid));
    });
    connect(s, &launch::RunSupervisor::rankExited, this, [this](int attempt, const launch::RankExit& e) {
        logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, attempt,
                      QStringLiteral("rank %1 %2").arg(e.rank).arg(launch::describeExit(e)));
    });
    connect(s, &launch::RunSupervisor::finished, this, [this](const launch::RunOutcome& o) {
        logs_->flush();
        Q_EMIT finished(o);
    });
}

RunSession::~RunSession()
{
    // The recorder disconnects from the supervisor; the supervisor kills what is left.
    if (supervisor_) supervisor_->removeMetricsSink(live_);
    recorder_.reset();
    supervisor_.reset();
}

void RunSession::start() { supervisor_->start(); }

void RunSession::stop()
{
    if (isFinished()) return;
    // The reason is stored with the run: in English, like the launcher's.
    if (stopRequests_++ == 0) supervisor_->cancel({FailureCode::CancelledFromWorkbench, {}});
    else supervisor_->forceStop();
}

} // namespace sb::gui
