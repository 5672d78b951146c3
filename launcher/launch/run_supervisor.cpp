#include "run_supervisor.hpp"

#include "events/event_line.hpp"

#include <QDateTime>

#include <cmath>

namespace sb::launch {

using store::RunStatus;

RunSupervisor::RunSupervisor(PreparedLaunch launch, BackendFactory factory, QObject* parent)
    : QObject(parent), launch_(std::move(launch)), factory_(std::move(factory))
{
    restartTimer_.setSingleShot(true);
    connect(&restartTimer_, &QTimer::timeout, this, &RunSupervisor::startAttempt);
    for (const RankSlot& s : launch_.ranks) {
        RankView v;
        v.rank = s.rank;
        v.host = launch_.hosts.value(s.hostIndex).name;
        rankViews_.insert(s.rank, v);
    }
}

RunSupervisor::~RunSupervisor()
{
    if (backend_) {
        backend_->disconnect(this);
        backend_->kill();
        backend_.reset(); // its destructor waits for its processes or threads
    }
}

double RunSupervisor::now() { return QDateTime::currentMSecsSinceEpoch() / 1000.0; }

QList<RankView> RunSupervisor::ranks() const
{
    QList<RankView> out;
    for (const RankSlot& s : launch_.ranks) out << rankViews_.value(s.rank);
    return out;
}

QString RunSupervisor::hostOfRank(int rank) const
{
    const RankSlot* s = launch_.slotOf(rank);
    return s ? hostName(s->hostIndex) : QString();
}

QString RunSupervisor::hostName(int hostIndex) const
{
    return hostNames_.value(hostIndex, launch_.hosts.value(hostIndex).name);
}

void RunSupervisor::setStatus(RunStatus status, const CodedReason& reason)
{
    if (status_ == status && reason.isEmpty()) return;
    status_ = status;
    Q_EMIT statusChanged(status, reason);
}

void RunSupervisor::start()
{
    Q_ASSERT(attempt_ < 0);
    outcome_.startedAt = now();
    resumeDir_ = launch_.config.resumeFrom;
    setStatus(RunStatus::Starting);
    startAttempt();
}

void RunSupervisor::startAttempt()
{
    if (cancelled_) {
        finish(RunStatus::Cancelled, cancelReason_);
        return;
    }
    ++attempt_;
    outcome_.restarts = attempt_;
    stopping_ = false;
    killRequested_ = false;
    launchError_.clear();
    launchErrorHost_ = -1;
    exits_.clear();
    lastErrors_.clear();
    lastStderr_.clear();
    exitedRanks_ = succeededRanks_ = startedRanks_ = 0;
    for (RankView& v : rankViews_) {
        v.pid = 0;
        v.running = false;
    }
    attemptStartedAt_ = now();

    backend_ = factory_();
    Backend* b = backend_.get();
    connect(b, &Backend::progress, this, &RunSupervisor::progress);
    connect(b, &Backend::hostReady, this, [this](const HostInfo& info) {
        // A Slurm node is named only once allocated.
        hostNames_.insert(info.hostIndex, info.name);
        for (const RankSlot& s : launch_.ranks)
            if (s.hostIndex == info.hostIndex) rankViews_[s.rank].host = info.name;
        Q_EMIT hostReady(info);
    });
    connect(b, &Backend::ranksStarting, this, [this](const QString& addr, int port) {
        Q_EMIT progress(QStringLiteral("starting %1 ranks (rendezvous %2:%3)").arg(launch_.worldSize).arg(addr).arg(port));
        setStatus(RunStatus::Running);
    });
    connect(b, &Backend::launchFailed, this, &RunSupervisor::onLaunchFailed);
    connect(b, &Backend::rankStarted, this, [this](int rank, qint64 pid) {
        RankView& v = rankViews_[rank];
        v.pid = pid;
        v.running = true;
        ++startedRanks_;
        Q_EMIT rankStarted(attempt_, rank, pid);
    });
    connect(b, &Backend::rankOutput, this, &RunSupervisor::onRankOutput);
    connect(b, &Backend::rankExited, this, &RunSupervisor::onRankExited);
    connect(b, &Backend::finished, this, &RunSupervisor::onBackendFinished);

    Q_EMIT attemptStarted(attempt_, resumeDir_);
    AttemptSpec spec;
    spec.attempt = attempt_;
    spec.masterAddr = launch_.config.masterAddr;
    spec.masterPort = launch_.config.masterPort;
    spec.resumeDir = resumeDir_;
    b->start(launch_, spec);
}

void RunSupervisor::onRankOutput(int rank, OutputStream stream, const QByteArray& line, bool truncated)
{
    if (stream == OutputStream::Stdout) {
        const protocol::ParsedLine p = protocol::parseOutputLine(line);
        if (p.kind == protocol::ParsedLine::Event && !truncated) {
            onEvent(rank, p.event);
            return;
        }
        if (p.kind == protocol::ParsedLine::Malformed || (truncated && line.startsWith(protocol::kEventPrefix))) {
            ++outcome_.malformedLines;
            Q_EMIT malformedLine(attempt_, rank, truncated ? QStringLiteral("event line too long") : p.error,
                                 QString::fromUtf8(line.left(200)));
            return;
        }
    }
    const QString text = QString::fromUtf8(line);
    if (stream == OutputStream::Stderr && !text.trimmed().isEmpty() && !protocol::isRankProgressLine(std::string_view(line.constData(), static_cast<std::size_t>(line.size()))))
        lastStderr_[rank] = text.trimmed().left(300);
    Q_EMIT outputLine(attempt_, rank, stream, text);
}

void RunSupervisor::onEvent(int rank, protocol::CoreEvent event)
{
    // The process is the authority on its rank, whatever the line claims.
    event.rank = rank;
    Q_EMIT eventReceived(attempt_, event);
    if (auto step = protocol::stepFromEvent(event)) {
        step->attempt = attempt_;
        rankViews_[rank].lastStep = *step;
        if (step->step > outcome_.stepsDone) outcome_.stepsDone = step->step;
        if (rank == 0 && !std::isnan(step->loss)) outcome_.finalLoss = step->loss;
        for (MetricsSink* s : sinks_) s->log(*step);
        Q_EMIT stepReported(*step);
    } else if (auto ck = protocol::checkpointFromEvent(event)) {
        const int saved = static_cast<int>(ck->step);
        // Rank 0 reports a sharded checkpoint once every rank's part is in place.
        if (rank == 0 && protocol::isComplete(*ck) && (!latestCheckpoint_ || saved >= latestCheckpoint_->step))
            latestCheckpoint_ = Checkpoint{saved, QString::fromStdString(ck->path)};
        if (!protocol::isComplete(*ck)) {
            failedCheckpoints_.insert({attempt_, saved});
            const std::string why = ck->message && !ck->message->empty() ? *ck->message : ck->status;
            if (firstCheckpointFailure_.isEmpty()) firstCheckpointFailure_ = QStringLiteral("step %1: %2").arg(saved).arg(QString::fromStdString(why));
        }
        Q_EMIT checkpointReported(attempt_, rank, *ck);
    } else if (auto done = protocol::eventAs<protocol::Done>(event)) {
        if (rank == 0 && done->finalLoss && !std::isnan(*done->finalLoss)) rank0FinalLoss_ = *done->finalLoss;
    } else if (event.type == QLatin1String(protocol::type::error)) {
        lastErrors_[rank] = protocol::errorText(event);
    }
}

void RunSupervisor::onRankExited(const RankExit& exitIn)
{
    RankExit exit = exitIn;
    RankView& v = rankViews_[exit.rank];
    v.running = false;
    ++exitedRanks_;
    ObservedExit o;
    o.exit = exit;
    o.host = hostOfRank(exit.rank);
    o.order = exitOrder_++;
    o.msSinceStop = stopping_ ? sinceStop_.elapsed() : -1;
    o.lastError = lastErrors_.value(exit.rank);
    // Without an error event, a failed exit is explained by its last words.
    if (o.lastError.isEmpty() && exit.kind == RankExit::Exited && exit.code != 0) o.lastError = lastStderr_.value(exit.rank);
    if (exit.kind == RankExit::Signaled && causePriority(o, launch_.config.stopGraceMs, killRequested_) < 0)
        exit.stoppedByLauncher = o.exit.stoppedByLauncher = true;
    exits_ << o;
    Q_EMIT rankExited(attempt_, exit);
    if (exit.success()) {
        ++succeededRanks_;
        return;
    }
    if (!stopping_) {
        Q_EMIT progress(QStringLiteral("%1; stopping every other rank").arg(failureReason(o)));
        stopAttempt();
    }
}

void RunSupervisor::onLaunchFailed(const QString& message, int hostIndex)
{
    if (launchError_.isEmpty()) {
        launchError_ = message;
        launchErrorHost_ = hostIndex;
    }
    stopAttempt();
}

void RunSupervisor::stopAttempt()
{
    if (stopping_ || !backend_) return;
    stopping_ = true;
    sinceStop_.start();
    backend_->terminate();
}

void RunSupervisor::cancel(const FailureReason& why)
{
    if (finished_ || cancelled_) return;
    cancelled_ = true;
    cancelReason_ = codedReason(why);
    Q_EMIT progress(cancelReason_.text + QStringLiteral("; stopping every rank"));
    if (restartTimer_.isActive()) {
        restartTimer_.stop();
        finish(RunStatus::Cancelled, cancelReason_);
        return;
    }
    stopAttempt();
}

void RunSupervisor::forceStop()
{
    if (!backend_) return;
    if (!stopping_) {
        stopping_ = true;
        sinceStop_.start();
    }
    killRequested_ = true;
    backend_->kill();
}

void RunSupervisor::onBackendFinished()
{
    // Never delete the backend inside its own signal.
    if (backend_) backend_.release()->deleteLater();
    const int grace = launch_.config.stopGraceMs;

    store::AttemptRecord rec;
    rec.attempt = attempt_;
    rec.startedAt = attemptStartedAt_;
    rec.endedAt = now();
    rec.resumeDir = resumeDir_;

    const bool allSucceeded = launchError_.isEmpty() && succeededRanks_ == launch_.worldSize;
    if (allSucceeded && !cancelled_) {
        rec.status = store::statusName(RunStatus::Completed);
        Q_EMIT attemptEnded(rec);
        if (rank0FinalLoss_) outcome_.finalLoss = *rank0FinalLoss_;
        outcome_.failedCheckpoints = static_cast<int>(failedCheckpoints_.size());
        finish(RunStatus::Completed, failedCheckpoints_.isEmpty()
                                         ? CodedReason()
                                         : codedReason(checkpointsFailedReason(static_cast<std::size_t>(failedCheckpoints_.size()),
                                                                               firstCheckpointFailure_.toStdString())));
        return;
    }

    CodedReason coded;
    int failingRank = -1;
    QString failingHost;
    const std::optional<ObservedExit> cause = rootCause(exits_, grace, killRequested_);
    if (!launchError_.isEmpty()) {
        coded = codedReason({FailureCode::LaunchFailed, {launchError_.toStdString()}});
        failingHost = launch_.hosts.value(launchErrorHost_).name;
    } else if (cause) {
        coded = failureReasonCoded(*cause);
        failingRank = cause->exit.rank;
        failingHost = cause->host;
    } else if (!cancelled_) {
        coded = codedReason({FailureCode::RanksUnfinished, {}});
    }

    if (cancelled_) {
        rec.status = store::statusName(RunStatus::Cancelled);
        recordReason(rec, cancelReason_);
        Q_EMIT attemptEnded(rec);
        finish(RunStatus::Cancelled, cancelReason_);
        return;
    }
    rec.status = store::statusName(RunStatus::Failed);
    recordReason(rec, coded);
    rec.failingRank = failingRank;
    Q_EMIT attemptEnded(rec);
    outcome_.failingRank = failingRank;
    outcome_.failingHost = failingHost;

    // Retrying cannot help a launch that could not start (host key, login,
    // missing core) nor bad input (exit code 2: the plan or the environment);
    // it may help a failure of running ranks.
    const bool badInput = cause && cause->exit.kind == RankExit::Exited && cause->exit.code == 2;
    const bool notStarted = std::any_of(exits_.begin(), exits_.end(),
                                        [](const ObservedExit& o) { return o.exit.kind == RankExit::NotStarted; });
    const bool retryable = launchError_.isEmpty() && !badInput && !notStarted;
    if (retryable && attempt_ < launch_.config.maxRestarts) {
        if (latestCheckpoint_) resumeDir_ = latestCheckpoint_->path;
        Q_EMIT progress(QStringLiteral("attempt %1 failed: %2; restarting (%3 of %4)%5")
                            .arg(attempt_)
                            .arg(coded.text)
                            .arg(attempt_ + 1)
                            .arg(launch_.config.maxRestarts)
                            .arg(resumeDir_.isEmpty() ? QStringLiteral(" from scratch")
                                                      : QStringLiteral(" from ") + resumeDir_));
        setStatus(RunStatus::Running, coded);
        restartTimer_.start(1000);
        return;
    }
    if (attempt_ > 0) {
        coded.text += QString::fromStdString(afterRestartsText(attempt_));
        coded.restarts = attempt_;
    }
    finish(RunStatus::Failed, coded);
}

void RunSupervisor::finish(RunStatus status, const CodedReason& reason)
{
    if (finished_) return;
    finished_ = true;
    outcome_.status = status;
    recordReason(outcome_, reason);
    outcome_.endedAt = now();
    for (MetricsSink* s : sinks_) s->close();
    setStatus(status, reason);
    Q_EMIT finished(outcome_);
}

} // namespace sb::launch
