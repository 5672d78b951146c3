#include "run_harness.hpp"

#include "launch/local_backend.hpp"
#include "launch/prepared_launch.hpp"
#include "launch/ssh/ssh_backend.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

namespace sb::test {

RunHarness::RunHarness(QString dbPath) : dbPath_(std::move(dbPath)) {}

RunHarness::~RunHarness()
{
    recorder_.reset();
    supervisor_.reset();
    store_.reset();
}

QString RunHarness::prepare(const launch::RunConfig& config, launch::HostKeyPolicy* policy)
{
    const launch::PrepareResult p = launch::prepareLaunch(config);
    if (!p.ok()) return p.errors.join(QLatin1Char('\n'));
    QString err;
    store_ = store::SqliteRunStore::open(dbPath_, &err);
    if (!store_) return err;
    const launch::BackendKind kind = config.backend;
    supervisor_ = std::make_unique<launch::RunSupervisor>(p.launch, [kind, policy]() -> std::unique_ptr<launch::Backend> {
        if (kind == launch::BackendKind::Ssh) return std::make_unique<launch::SshBackend>(policy);
        return std::make_unique<launch::LocalBackend>();
    });
    recorder_ = std::make_unique<launch::RunRecorder>(*store_, *supervisor_);
    if (!recorder_->ok()) return recorder_->error();
    launch::RunSupervisor* s = supervisor_.get();
    QObject::connect(s, &launch::RunSupervisor::attemptStarted, s, [this](int, const QString&) { pids.clear(); });
    QObject::connect(s, &launch::RunSupervisor::rankStarted, s, [this](int, int rank, qint64 pid) { pids[rank] = pid; });
    QObject::connect(s, &launch::RunSupervisor::stepReported, s, [this](const protocol::StepMetrics& m) { steps << m; });
    QObject::connect(s, &launch::RunSupervisor::rankExited, s, [this](int, const launch::RankExit& e) { exits << e; });
    QObject::connect(s, &launch::RunSupervisor::checkpointReported, s,
                     [this](int, const protocol::CheckpointReport& c) { checkpoints << c; });
    QObject::connect(s, &launch::RunSupervisor::progress, s, [this](const QString& m) { progress << m; });
    QObject::connect(s, &launch::RunSupervisor::eventReceived, s, [this](int, const protocol::CoreEvent& e) {
        if (e.type == QLatin1String("error")) errors << QStringLiteral("rank %1: %2").arg(e.rank).arg(protocol::errorText(e));
    });
    QObject::connect(s, &launch::RunSupervisor::finished, s, [this] {
        finished_ = true;
        finishedAtMs = clock.elapsed();
    });
    return {};
}

void RunHarness::start()
{
    clock.start();
    supervisor_->start();
}

bool RunHarness::waitFor(const std::function<bool()>& pred, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!pred()) {
        if (deadline.hasExpired()) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QThread::msleep(5);
    }
    return true;
}

bool RunHarness::waitFinished(int timeoutMs)
{
    return waitFor([this] { return finished_; }, timeoutMs);
}

int RunHarness::minStepOfAllRanks() const
{
    int min = -1;
    for (const launch::RankView& r : supervisor_->ranks()) {
        const int s = r.lastStep && r.lastStep->attempt == supervisor_->attempt() ? r.lastStep->step : 0;
        if (min < 0 || s < min) min = s;
    }
    return std::max(min, 0);
}

void RunHarness::closeStore()
{
    recorder_.reset();
    store_.reset();
}

} // namespace sb::test
