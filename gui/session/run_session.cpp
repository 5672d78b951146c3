#include "run_session.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"

#include "launch/run_rows.hpp"

namespace sb::gui {

RunSession::RunSession(std::shared_ptr<app::SupervisedRun> run, const std::vector<qint64>& predictedPeaks, QObject* parent)
    : QObject(parent), run_(std::move(run)), live_(new LiveRunModel(this)), logs_(new RunLogModel(this))
{
    launch::RunSupervisor* s = &run_->supervisor();
    live_->reset(run_->launch().worldSize, run_->launch().planSteps, predictedPeaks);
    s->addMetricsSink(live_);

    connect(s, &launch::RunSupervisor::statusChanged, this, [this](store::RunStatus st, const launch::CodedReason& reason) {
        status_ = st;
        if (!reason.isEmpty() || store::isFinal(st)) reason_ = reason;
        Q_EMIT statusChanged(st, reason);
    });
    connect(s, &launch::RunSupervisor::progress, this,
            [this](const QString& line) { logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, run_->supervisor().attempt(), line); });
    connect(s, &launch::RunSupervisor::outputLine, this,
            [this](int attempt, int rank, launch::OutputStream stream, const QString& line) {
                logs_->append(rank, stream == launch::OutputStream::Stdout ? RunLogModel::Stdout : RunLogModel::Stderr, attempt, line);
            });
    connect(s, &launch::RunSupervisor::rankStarted, this, [this](int attempt, int rank, qint64 pid) {
        logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, attempt,
                      QStringLiteral("rank %1 started on %2 (pid %3)").arg(rank).arg(run_->supervisor().hostOfRank(rank)).arg(pid));
    });
    connect(s, &launch::RunSupervisor::rankExited, this, [this](int attempt, const launch::RankExit& e) {
        logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, attempt,
                      QStringLiteral("rank %1 %2").arg(e.rank).arg(launch::describeExit(e)));
    });
    connect(s, &launch::RunSupervisor::eventReceived, this, [this](int attempt, const protocol::CoreEvent& e) {
        if (const std::optional<protocol::System> sample = protocol::eventAs<protocol::System>(e))
            live_->system()->add(launch::systemSampleRecord(-1, attempt, e, *sample));
    });
    connect(s, &launch::RunSupervisor::finished, this, [this](const launch::RunOutcome& o) {
        logs_->flush();
        Q_EMIT finished(o);
    });
}

RunSession::~RunSession()
{
    // The run may outlive this session (the service holds it until the next
    // launch): its supervisor must not call the models that go with it.
    run_->supervisor().removeMetricsSink(live_);
    run_->supervisor().disconnect(this);
}

} // namespace sb::gui
