#include "attach_session.hpp"

#include <QSysInfo>

namespace sb::launch {

AttachSession::AttachSession(store::RunStore& store, const store::RunRow& run, AttachTarget target, HostKeyPolicy* policy,
                             AttachOptions options, QHash<QString, qint64> offsets,
                             QHash<QPair<int, int>, int> storedLogLines, QHash<QPair<int, int>, qint64> storedEventBytes,
                             QObject* parent)
    : QObject(parent), store_(store), runId_(run.id), target_(std::move(target)), policy_(policy), options_(options),
      ingestor_(store, run.id, std::move(offsets), std::move(storedLogLines), std::move(storedEventBytes))
{
    ingestor_.setStoredRun(run);
    switch (target_.transport) {
    case AttachTarget::Transport::Local: ingestor_.setSupervisorPlace(QSysInfo::machineHostName()); break;
    case AttachTarget::Transport::Ssh: ingestor_.setSupervisorPlace(target_.host.hostPart()); break;
    case AttachTarget::Transport::Slurm: ingestor_.setSupervisorPlace(QStringLiteral("the node of Slurm job %1").arg(target_.slurmJob)); break;
    }
    connect(&ingestor_, &RunIngestor::notice, this, [this](const QString& m) { Q_EMIT progress(m); });
    retryMs_ = options_.firstRetryMs;
    watchdog_.setInterval(250);
    connect(&watchdog_, &QTimer::timeout, this, [this] {
        if (stream_ && sinceData_.isValid() && sinceData_.elapsed() > options_.silenceMs)
            retry(QStringLiteral("no data from %1 for %2 s").arg(target_.describe()).arg(options_.silenceMs / 1000));
    });
    retryTimer_.setSingleShot(true);
    connect(&retryTimer_, &QTimer::timeout, this, &AttachSession::connectStream);
    saveTimer_.setInterval(500);
    connect(&saveTimer_, &QTimer::timeout, this, [this] { ingestor_.saveOffsets(); });
}

AttachSession::~AttachSession()
{
    if (stream_) stream_->disconnect(this);
}

void AttachSession::start()
{
    watchdog_.start();
    saveTimer_.start();
    connectStream();
}

void AttachSession::detach()
{
    if (finished_) return;
    detaching_ = true;
    if (stream_) stream_->stop();
    else finish(QString());
}

void AttachSession::connectStream()
{
    stream_ = makeFollowStream(target_, policy_);
    FollowStream* s = stream_.get();
    connect(s, &FollowStream::connected, this, [this] {
        everConnected_ = true;
        retryMs_ = options_.firstRetryMs;
        sinceData_.start();
        if (lost_) {
            lost_ = false;
            Q_EMIT reconnected();
            Q_EMIT progress(QStringLiteral("reconnected to %1").arg(target_.describe()));
        }
    });
    connect(s, &FollowStream::lines, this, [this](const QList<QByteArray>& records) {
        sinceData_.start();
        ingestor_.take(records);
        // A state this build cannot read: following on would misread the run.
        if (!ingestor_.followerError().isEmpty() && !ingestor_.endReached()) finish(ingestor_.followerError());
    });
    connect(s, &FollowStream::ended, this, &AttachSession::onEnded);
    FollowRequest r;
    r.offsets = ingestor_.offsets();
    r.logs = options_.logs;
    r.events = options_.events;
    r.liveSteps = options_.liveSteps;
    r.wire = options_.wire;
    r.once = !options_.follow;
    sinceData_.start();
    s->start(r);
}

void AttachSession::onEnded(const QString& error)
{
    if (detaching_) return finish(QString());
    if (ingestor_.endReached()) return finish(QString());
    if (!ingestor_.followerError().isEmpty()) return finish(ingestor_.followerError());
    if (error.contains(QLatin1String("unexpected argument \"--wire\"")))
        return finish(QStringLiteral("%1: the shardbench-supervise there is older than this client; install the one of this "
                                     "version beside the core").arg(target_.describe()));
    if (!everConnected_) return finish(error.isEmpty() ? QStringLiteral("the follower ended early") : error);
    retry(error.isEmpty() ? QStringLiteral("the follower ended early") : error);
}

void AttachSession::retry(const QString& why)
{
    if (stream_) {
        // Let a stuck stream wind down on its own; its signals are no longer ours.
        stream_->disconnect(this);
        stream_->stop();
        stream_.release()->deleteLater();
    }
    sinceData_.invalidate();
    ingestor_.saveOffsets();
    lost_ = true;
    Q_EMIT connectionLost(why);
    Q_EMIT progress(QStringLiteral("connection lost — reconnecting in %1 s (%2)").arg(retryMs_ / 1000.0).arg(why));
    retryTimer_.start(retryMs_);
    retryMs_ = std::min(retryMs_ * 2, options_.maxRetryMs);
}

void AttachSession::finish(const QString& error)
{
    if (finished_) return;
    finished_ = true;
    watchdog_.stop();
    saveTimer_.stop();
    retryTimer_.stop();
    ingestor_.saveOffsets();
    if (ingestor_.newerVersionEvents() > 0)
        Q_EMIT progress(QStringLiteral("%1 event line(s) of a newer protocol version were not read (the run's log says where)")
                            .arg(ingestor_.newerVersionEvents()));
    if (ingestor_.inconsistent() > 0)
        Q_EMIT progress(QStringLiteral("%1 line record(s) refused: their offsets do not continue what is stored").arg(ingestor_.inconsistent()));
    const Status stored = store_.flush();
    if (stream_) {
        stream_->disconnect(this);
        stream_.release()->deleteLater();
    }
    // A run followed to its end whose rows could not be stored did not end well for this client.
    Q_EMIT finished(error.isEmpty() && !stored ? QStringLiteral("the run store cannot be written: ") + qtMessage(stored) : error);
}

} // namespace sb::launch
