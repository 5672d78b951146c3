#include "run_harness.hpp"
#include "../../safe_signal.hpp"

#include "launcher_test_support.hpp"

#include "launch/backend_factory.hpp"
#include "launch/prepared_launch.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

#include <csignal>

namespace sb::test {

launch::RunConfig sshRunConfig(const QString& plan, const SshdFixture& sshd, int hosts, const QString& remoteDir)
{
    launch::SshTarget t;
    for (int i = 0; i < hosts; ++i) t.hosts << launch::HostSpec{sshd.alias(i), 2};
    t.remoteCore = corePath();
    t.remoteDir = remoteDir;
    t.ssh.configFile = sshd.configFile;
    t.ssh.knownHostsFile = sshd.knownHostsFile;
    t.ssh.sshDir = sshd.sshDir;
    t.ssh.connectTimeoutS = 10;
    launch::RunConfig c;
    c.planPath = plan;
    c.name = QStringLiteral("ssh test");
    c.target = t;
    c.extraEnv.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
    return c;
}

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
    if (!p.ok()) return launch::runConfigMessages(p.errors).join(QLatin1Char('\n'));
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(dbPath_);
    if (!opened) return qtMessage(opened);
    store_ = std::move(opened).value();
    const launch::BackendKind kind = config.backend();
    supervisor_ = std::make_unique<launch::RunSupervisor>(p.launch, [kind, policy] { return launch::makeBackend(kind, policy); });
    recorder_ = std::make_unique<launch::RunRecorder>(*store_, *supervisor_);
    if (!recorder_->ok()) return recorder_->error();
    launch::RunSupervisor* s = supervisor_.get();
    QObject::connect(s, &launch::RunSupervisor::attemptStarted, s, [this](int, const QString&) { pids.clear(); });
    QObject::connect(s, &launch::RunSupervisor::rankStarted, s, [this](int, int rank, qint64 pid) { pids[rank] = pid; });
    QObject::connect(s, &launch::RunSupervisor::stepReported, s, [this](const protocol::StepMetrics& m) { steps << m; });
    QObject::connect(s, &launch::RunSupervisor::rankExited, s, [this](int, const launch::RankExit& e) { exits << e; });
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

QString RunHarness::stopWhenTraining(int minSteps, const std::function<QString()>& stop, int trainTimeoutMs,
                                     int finishTimeoutMs)
{
    if (!waitFor([&] { return minStepOfAllRanks() >= minSteps; }, trainTimeoutMs))
        return QStringLiteral("the ranks did not reach step %1:\n").arg(minSteps) + progress.join(QLatin1Char('\n'));
    QElapsedTimer sinceStop;
    sinceStop.start();
    if (QString e = stop(); !e.isEmpty()) return e;
    if (!waitFinished(finishTimeoutMs)) return QStringLiteral("the run did not finish within %1 ms of the stop").arg(finishTimeoutMs);
    msFromStopToFinish = sinceStop.elapsed();
    return {};
}

QString RunHarness::killRankWhenTraining(int rank, int minSteps, int trainTimeoutMs, int finishTimeoutMs)
{
    auto kill = [&]() -> QString {
        const qint64 victim = pids.value(rank);
        if (victim <= 0) return QStringLiteral("no pid for rank %1").arg(rank);
        if (const int r = rankOf(victim); r != rank) return QStringLiteral("pid %1 is rank %2, not %3").arg(victim).arg(r).arg(rank);
        if (sb::test::signalProcess(victim, SIGKILL) != 0) return QStringLiteral("cannot kill pid %1").arg(victim);
        return {};
    };
    return stopWhenTraining(minSteps, kill, trainTimeoutMs, finishTimeoutMs);
}

void RunHarness::closeStore()
{
    recorder_.reset();
    store_.reset();
}

QString RunHarness::blamesKilledRank(int rank) const
{
    const launch::RunOutcome& o = supervisor_->outcome();
    qInfo("reason: %s", qPrintable(o.reason));
    const bool named = o.reason.startsWith(QStringLiteral("rank %1 ").arg(rank)) && o.reason.contains(QLatin1String("signal 9"));
    if (o.status == store::RunStatus::Failed && o.failingRank == rank && named) return {};
    return QStringLiteral("status %1, failing rank %2: %3").arg(store::statusName(o.status)).arg(o.failingRank).arg(o.reason);
}

Result<std::unique_ptr<store::RunReader>> RunHarness::closeAndOpenReader()
{
    closeStore();
    return store::RunReader::open(dbPath_);
}

std::optional<store::RunRow> RunHarness::closeAndReadRun()
{
    const qint64 id = runId(); // the recorder knows it until the store closes
    const Result<std::unique_ptr<store::RunReader>> reader = closeAndOpenReader();
    if (!reader) return std::nullopt;
    return reader.value()->run(id);
}

} // namespace sb::test
