#include "slurm_follow_stream.hpp"

#include "../failure_analysis.hpp"
#include "protocol/follow_records.hpp"
#include "events/line_splitter.hpp"
#include "protocol/run_dir_layout.hpp"

#include <QDateTime>
#include <QProcess>
#include <QThread>

namespace sb::launch {

namespace {

constexpr int kBeatMs = 2000;
constexpr int kQueuedPollMs = 3000;
constexpr int kMaxFailedFollowers = 5; // on a running job, in a row

qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

// A record without its newline, as the follower's lines reach the stream.
QByteArray record(std::string text)
{
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return QByteArray::fromStdString(text);
}

QByteArray beatRecord()
{
    std::string out;
    protocol::appendBeatRecord(out, nowMs() / 1000.0, true, -1);
    return record(std::move(out));
}

QByteArray endRecord(bool alive)
{
    std::string out;
    protocol::appendEndRecord(out, alive);
    return record(std::move(out));
}

bool isFinal(const std::string& status) { return status == "completed" || status == "failed" || status == "cancelled"; }

} // namespace

namespace {

// state.json's "reason", "reason_code" and "reason_args", as the supervisor writes them.
void setReason(protocol::RunState& state, const FailureReason& why)
{
    state.reason = {why.message(), why.codeName(), why.args};
}

// "TIMEOUT (TimeLimit)": how Slurm says the job ended or waits.
std::string jobStateWords(const SlurmJobState& job)
{
    const QString words = job.state.section(QLatin1Char(' '), 0, 0) + (job.reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(job.reason));
    return words.toStdString();
}

} // namespace

QByteArray stateRecord(const protocol::RunState& state, bool alive)
{
    std::string out;
    protocol::appendStateRecord(out, alive, -1, protocol::runStateJson(state).dump());
    return record(std::move(out));
}

protocol::RunState reconciledState(protocol::RunState state, qint64 jobId, const SlurmJobState& job, const QString& runDir)
{
    const bool cancelled = job.state.startsWith(QLatin1String("CANCELLED"));
    const bool started = state.supervisor.has_value();
    const std::string id = std::to_string(jobId), dir = runDir.toStdString();
    if (job.phase == SlurmJobState::Phase::NotFound)
        setReason(state, started ? FailureReason{FailureCode::SlurmUnknownNoState, {id, dir}}
                                 : FailureReason{FailureCode::SlurmUnknownBeforeStart, {id}});
    else
        setReason(state, started ? FailureReason{FailureCode::SlurmEndedNoState, {id, jobStateWords(job), dir}}
                                 : FailureReason{FailureCode::SlurmEndedBeforeStart, {id, jobStateWords(job)}});
    state.status = cancelled ? "cancelled" : "failed";
    if (!state.endedAt) state.endedAt = nowMs() / 1000.0;
    return state;
}

SlurmFollowStream::SlurmFollowStream(AttachTarget target, QObject* parent) : FollowStream(parent), target_(std::move(target)) {}

SlurmFollowStream::~SlurmFollowStream()
{
    stop_ = true;
    if (thread_) thread_->wait();
}

void SlurmFollowStream::start(const FollowRequest& request)
{
    thread_.reset(QThread::create([this, request] { run(request); }));
    thread_->start();
}

void SlurmFollowStream::stop() { stop_ = true; }

void SlurmFollowStream::send(const QList<QByteArray>& batch)
{
    if (batch.isEmpty()) return;
    lastSentMs_ = nowMs();
    QMetaObject::invokeMethod(this, [this, batch] { Q_EMIT lines(batch); }, Qt::QueuedConnection);
}

void SlurmFollowStream::beatWhileWaiting(int ms)
{
    const qint64 until = nowMs() + ms;
    while (!stop_ && nowMs() < until) {
        if (nowMs() - lastSentMs_ >= kBeatMs)
            send({beatRecord()});
        QThread::msleep(100);
    }
}

void SlurmFollowStream::run(FollowRequest request)
{
    auto finish = [this](const QString& error) {
        QMetaObject::invokeMethod(this, [this, error] { Q_EMIT ended(error); }, Qt::QueuedConnection);
    };
    QMetaObject::invokeMethod(this, [this] { Q_EMIT connected(); }, Qt::QueuedConnection);
    offsets_ = request.offsets;
    const QByteArrayList follower = superviseCommand(target_, followArguments(request));
    QString queuedReason;
    int failures = 0;
    while (!stop_) {
        const SlurmJobState job = querySlurmJob(target_.slurmJob);
        if (job.phase == SlurmJobState::Phase::Unknown) return finish(job.describe(target_.slurmJob));
        if (job.phase == SlurmJobState::Phase::Queued) {
            // No state.json yet, and that is no error: the run waits in the queue.
            const std::string words = jobStateWords(job);
            if (QString::fromStdString(words) != queuedReason) {
                queuedReason = QString::fromStdString(words);
                protocol::RunState state;
                state.status = "starting";
                setReason(state, {FailureCode::SlurmQueued, {std::to_string(target_.slurmJob), words}});
                send({stateRecord(state, true)});
            }
            if (request.once) {
                send({endRecord(true)});
                return finish({});
            }
            beatWhileWaiting(kQueuedPollMs);
            continue;
        }
        QStringList argv;
        const bool onJobNode = job.phase == SlurmJobState::Phase::Running && !job.batchHost.isEmpty();
        if (onJobNode)
            argv << QStringLiteral("srun") << QStringLiteral("--jobid=%1").arg(target_.slurmJob) << QStringLiteral("--overlap")
                 << QStringLiteral("--nodes=1") << QStringLiteral("--ntasks=1") << QStringLiteral("--nodelist=") + job.batchHost
                 << QStringLiteral("--quiet") << QStringLiteral("--job-name=shardbench-follow");
        for (const QByteArray& a : follower) argv << QString::fromUtf8(a);
        const Result<Outcome> o = follow(argv, request, onJobNode);
        if (o && o.value() == Outcome::Ended) return finish({});
        if (!onJobNode) {
            // The job is gone and the follower here could not read the run: nothing will change that.
            if (!o) return finish(qtMessage(o));
            if (isFinal(lastState_.status)) return finish({});
            send({stateRecord(reconciledState(lastState_, target_.slurmJob, job, target_.runDir), false), endRecord(false)});
            return finish({});
        }
        // The step ended with the job, or the supervisor has not taken its lock yet: ask Slurm again.
        failures = o ? 0 : failures + 1;
        if (failures >= kMaxFailedFollowers) return finish(qtMessage(o));
        beatWhileWaiting(1000);
    }
    finish(QStringLiteral("detached"));
}

// Runs one follower to its end. Ended: the run's last record was passed on.
Result<SlurmFollowStream::Outcome> SlurmFollowStream::follow(const QStringList& argv, const FollowRequest& request, bool onJobNode)
{
    QProcess p;
    p.start(argv.first(), argv.mid(1));
    if (!p.waitForStarted(10000)) return qtError(QStringLiteral("cannot run %1: %2").arg(argv.first(), p.errorString()));
    p.write(offsetsPreamble(offsets_)); // stdin stays open: closing it tells the follower we left
    protocol::LineSplitter splitter(kMaxFollowerLine);
    bool ended = false;
    while (!stop_ && !ended) {
        const bool more = p.waitForReadyRead(200);
        QList<QByteArray> batch; // what one read brought, passed on at once
        splitter.feed(p.readAllStandardOutput(), [&](QByteArray l, bool) {
            if (!ended && take(l, onJobNode, request.once, &ended)) batch.push_back(std::move(l));
        });
        send(batch);
        if (!more && p.state() == QProcess::NotRunning) break;
        if (!more && nowMs() - lastSentMs_ >= kBeatMs) // srun may take a while to start the step
            send({beatRecord()});
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(3000)) {
        p.kill();
        p.waitForFinished(2000);
    }
    if (ended) return Outcome::Ended;
    const QString err = QString::fromUtf8(p.readAllStandardError().trimmed()).left(2000);
    if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) return Outcome::Again;
    return qtError(QStringLiteral("the follower ended (exit %1)%2").arg(p.exitCode()).arg(err.isEmpty() ? QString() : QStringLiteral(": ") + err));
}

// Whether to pass a follower record on, keeping the offsets and the last
// state; an "end" is passed on only when it is the run's (a final state, or
// --once on the job's node): there the supervisor may not have started yet.
bool SlurmFollowStream::take(const QByteArray& record, bool onJobNode, bool once, bool* ended)
{
    // A file's offset moves over lines in order only, each starting where the last ended (as the ingestor checks).
    auto advance = [this](const QString& file, qint64 at, qint64 next) {
        if (at == offsets_.value(file, 0) && next > at) offsets_.insert(file, next);
    };
    const std::optional<protocol::FollowRecord> r =
        protocol::parseFollowRecord(std::string_view(record.constData(), static_cast<std::size_t>(record.size())));
    if (!r) return true; // passed on: the ingestor counts what is malformed
    using Kind = protocol::FollowRecord::Kind;
    if (r->kind == Kind::Line) {
        // Lines sent ahead ("live", wire 2's "E") skip lines: they move no offset.
        if (!r->live) advance(QString::fromStdString(r->file), r->offset, r->next);
    } else if (r->kind == Kind::State) {
        // Kept as read (a state this build cannot read keeps the last one; the ingestor says why).
        if (Result<protocol::RunState> state = protocol::readRunState(r->state, protocol::kStateFile, "update shardbench"); state.ok())
            lastState_ = std::move(state).value();
    } else if (r->kind == Kind::End) {
        *ended = isFinal(lastState_.status) || (once && onJobNode);
        return *ended; // if not, the caller asks Slurm again, or reconciles with the job's state
    }
    return true;
}

} // namespace sb::launch
