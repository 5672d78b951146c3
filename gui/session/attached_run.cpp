#include "attached_run.hpp"

#include "stored_run.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"
#include "jobs/work_pool.hpp"

#include "launch/detach/detached_control.hpp"
#include "launch/detach/rank_log_fetch.hpp"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::gui {

using app::workPool;

namespace {
constexpr int kLiveStepsOfAllRanks = 64;
} // namespace

AttachedRun::AttachedRun(const QString& dbPath, std::shared_ptr<store::SqliteRunStore> store, qint64 runId,
                         launch::HostKeyPolicy* policy, QObject* parent)
    : QObject(parent), store_(std::move(store)), dbPath_(dbPath), policy_(policy), live_(new LiveRunModel(this)),
      logs_(new RunLogModel(this))
{
    launch::AttachOptions options;
    options.follow = true;
    options.logs = QStringLiteral("rank0");
    // Every rank's memory bar moves live in a run of up to kLiveStepsOfAllRanks
    // ranks; a larger run sends rank 0's steps live and the others' at catch-up,
    // so following costs the same at any size (docs/launcher.md#attaching).
    if (auto reader = store::RunReader::open(dbPath))
        if (const auto run = reader.value()->run(runId); run && run->worldSize <= kLiveStepsOfAllRanks)
            options.liveSteps = QStringLiteral("all");
    Result<std::unique_ptr<launch::AttachSession>> session = launch::openAttachSession(dbPath, *store_, runId, policy, options, &row_);
    if (!session) {
        error_ = qtMessage(session);
        return;
    }
    session_ = std::move(session).value();
    status_ = store::parseStatus(row_.status).value_or(store::RunStatus::Running);
    reason_ = launch::storedReason(row_);
    loadBacklog(dbPath);
    connectSession();
}

AttachedRun::~AttachedRun()
{
    // A stop under way finishes on its own (its watcher goes with this
    // object); only following ends here.
    if (session_) session_->disconnect(this);
    if (logFetch_) logFetch_->disconnect(this);
}

void AttachedRun::loadBacklog(const QString& dbPath)
{
    // What earlier clients stored is drawn first (the recorded plan gives the
    // length of the run and the estimate per rank); the stream then resumes
    // from the stored offsets. A line it sends again (offsets are saved a
    // little after the rows) replaces the same step, as a restart's does.
    StoredRunParts parts;
    parts.logRanks = {RunLogModel::kLauncher, 0};
    parts.checkpoints = false;
    StoredRun stored = readStoredRun(dbPath, row_.id, parts);
    if (!stored.error.isEmpty()) stored.row = row_; // the length and the estimate still come from the plan
    showStoredSteps(stored, live_);
    logs_->clear();
    appendStoredLogs(stored.logs, logs_);
    ranksWithLogs_ = {RunLogModel::kLauncher, 0};
}

void AttachedRun::fetchRankLog(int rank)
{
    if (!session_ || rank <= 0 || rank >= row_.worldSize) return; // rank 0's is followed live
    if (rank == fetchingRank_ || logFetchQueue_.contains(rank)) return;
    logFetchQueue_ << rank;
    if (!logFetch_) nextLogFetch();
}

void AttachedRun::nextLogFetch()
{
    if (logFetch_) logFetch_.release()->deleteLater(); // this turn may still be inside its signal
    fetchingRank_ = -1;
    if (logFetchQueue_.isEmpty()) return;
    const int rank = logFetchQueue_.takeFirst();
    if (!ranksWithLogs_.contains(rank))
        if (auto reader = store::RunReader::open(dbPath_)) {
            ranksWithLogs_.insert(rank);
            appendStoredLogs(reader.value()->logs(row_.id, rank), logs_);
        }
    Result<std::unique_ptr<launch::AttachSession>> fetch = launch::openRankLogFetch(dbPath_, *store_, row_.id, rank, policy_);
    if (!fetch) {
        Q_EMIT rankLogFetched(rank, qtMessage(fetch));
        nextLogFetch();
        return;
    }
    logFetch_ = std::move(fetch).value();
    fetchingRank_ = rank;
    connect(&logFetch_->ingestor(), &launch::RunIngestor::logLine, this, [this](int attempt, int r, const QString& line) {
        if (r >= 0) logs_->append(r, RunLogModel::Stdout, attempt, line);
    });
    connect(logFetch_.get(), &launch::AttachSession::finished, this, [this, rank](const QString& e) {
        logs_->flush();
        Q_EMIT rankLogFetched(rank, e);
        nextLogFetch();
    }, Qt::QueuedConnection);
    logFetch_->start();
}

void AttachedRun::connectSession()
{
    launch::AttachSession* s = session_.get();
    launch::RunIngestor* in = &s->ingestor();
    connect(in, &launch::RunIngestor::stepReported, this, [this](const protocol::StepMetrics& m) {
        live_->log(m);
        Q_EMIT stepReported(m);
    });
    connect(in, &launch::RunIngestor::systemSampled, live_->system(), &SystemSeries::add);
    connect(in, &launch::RunIngestor::logLine, this, [this](int attempt, int rank, const QString& line) {
        if (rank < 0) logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, attempt, line);
        else logs_->append(rank, RunLogModel::Stdout, attempt, line);
    });
    connect(in, &launch::RunIngestor::stateChanged, this, [this](store::RunStatus st, const launch::CodedReason& reason, bool) {
        if (!connected_) {
            connected_ = true;
            Q_EMIT connectionChanged(true, {});
        }
        status_ = st;
        reason_ = reason;
        Q_EMIT statusChanged(st, reason);
    });
    connect(s, &launch::AttachSession::progress, this,
            [this](const QString& line) { logs_->append(RunLogModel::kLauncher, RunLogModel::Launcher, 0, line); });
    connect(s, &launch::AttachSession::connectionLost, this, [this](const QString& why) {
        connected_ = false;
        Q_EMIT connectionChanged(false, why);
    });
    connect(s, &launch::AttachSession::reconnected, this, [this] {
        connected_ = true;
        Q_EMIT connectionChanged(true, {});
    });
    connect(s, &launch::AttachSession::finished, this, [this](const QString& error) {
        followError_ = error;
        finished_ = true;
        connected_ = false;
        logs_->flush();
        if (const Status stored = store_->flush(); !stored && followError_.isEmpty())
            followError_ = QStringLiteral("the run store: ") + qtMessage(stored);
        Q_EMIT finished();
    }, Qt::QueuedConnection);
}

QString AttachedRun::where() const { return session_ ? session_->target().describe() : QString(); }

void AttachedRun::start()
{
    if (session_) session_->start();
}

void AttachedRun::detach()
{
    if (session_ && !finished_) session_->detach();
}

void AttachedRun::stop()
{
    if (!session_ || finished_) return;
    // The first request lets the ranks finish their step within the grace;
    // a second one, even while the first waits, kills them.
    const bool kill = stopRequests_++ > 0;
    const launch::AttachTarget target = session_->target();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const QString error = watcher->result();
        if (!error.isEmpty() && !finished_) {
            stopRequests_ = 0;
            Q_EMIT stopFailed(error);
        }
    });
    watcher->setFuture(QtConcurrent::run(workPool(), [target, kill] {
        const Result<QString> stopped = launch::stopDetachedRun(target, kill);
        return stopped ? QString() : qtMessage(stopped); // why it was not stopped
    }));
}

} // namespace sb::gui
