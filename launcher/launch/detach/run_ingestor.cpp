#include "run_ingestor.hpp"

#include "protocol/event_line.hpp"
#include "supervisor/run_dir.hpp"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace sb::launch {

namespace {

double optionalTime(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : store::kNoTime;
}

store::RunStatus statusOf(const QString& s)
{
    if (s == QLatin1String("completed")) return store::RunStatus::Completed;
    if (s == QLatin1String("failed")) return store::RunStatus::Failed;
    if (s == QLatin1String("cancelled")) return store::RunStatus::Cancelled;
    if (s == QLatin1String("starting")) return store::RunStatus::Starting;
    return store::RunStatus::Running; // running, restarting
}

} // namespace

RunIngestor::RunIngestor(store::RunStore& store, qint64 runId, QHash<QString, qint64> offsets,
                         QHash<QPair<int, int>, int> storedLogLines, QHash<QPair<int, int>, qint64> storedEventBytes,
                         RecorderOptions caps)
    : store_(store), runId_(runId), offsets_(std::move(offsets)), logLines_(std::move(storedLogLines)),
      eventBytes_(std::move(storedEventBytes)), caps_(caps)
{
}

void RunIngestor::take(const QByteArray& record)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(record, &err);
    const QJsonObject o = doc.object();
    const QString kind = o.value(QStringLiteral("k")).toString();
    if (!doc.isObject() || kind.isEmpty()) {
        ++malformed_;
        return;
    }
    if (o.contains(QStringLiteral("alive"))) alive_ = o.value(QStringLiteral("alive")).toBool();
    if (kind == QLatin1String("l")) {
        const QString file = o.value(QStringLiteral("f")).toString();
        const qint64 at = static_cast<qint64>(o.value(QStringLiteral("o")).toDouble(-1));
        const qint64 next = static_cast<qint64>(o.value(QStringLiteral("n")).toDouble(-1));
        if (file.isEmpty() || at < 0 || next <= at) {
            ++malformed_;
            return;
        }
        if (next <= offsets_.value(file, 0)) return; // already stored
        takeLine(file, at, o.value(QStringLiteral("d")).toString().toUtf8());
        offsets_.insert(file, next);
        dirty_.insert(file);
    } else if (kind == QLatin1String("state")) {
        takeState(o);
    } else if (kind == QLatin1String("error")) {
        followerError_ = o.value(QStringLiteral("message")).toString();
    } else if (kind == QLatin1String("end")) {
        ended_ = true;
        // A supervisor that is gone without a final state died with its run.
        if (!alive_ && !store::isFinal(status_)) {
            const double heard = state_.value(QStringLiteral("updated_at")).toDouble();
            status_ = store::RunStatus::Failed;
            reason_ = QStringLiteral("the supervisor on %1 is gone (last heard from at %2)")
                          .arg(state_.value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("host")).toString(),
                               QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(heard * 1000)).toString(Qt::ISODate));
            store::RunUpdate u;
            u.runId = runId_;
            u.status = status_;
            u.reason = reason_;
            store_.updateRun(u);
            Q_EMIT stateChanged(status_, reason_, false);
        }
    }
}

void RunIngestor::takeState(const QJsonObject& record)
{
    state_ = record.value(QStringLiteral("state")).toObject();
    const QString status = state_.value(QStringLiteral("status")).toString();
    status_ = statusOf(status);
    reason_ = state_.value(QStringLiteral("reason")).toString();
    if (status == QLatin1String("restarting")) reason_ = QStringLiteral("restarting after: ") + reason_;
    worldSize_ = state_.value(QStringLiteral("world_size")).toInt();
    for (const QJsonValue& r : state_.value(QStringLiteral("ranks")).toArray())
        hostOfRank_.insert(r.toObject().value(QStringLiteral("rank")).toInt(), r.toObject().value(QStringLiteral("host")).toString());

    store::RunUpdate u;
    u.runId = runId_;
    u.status = status_;
    u.reason = reason_;
    const double started = optionalTime(state_, "started_at");
    if (!std::isnan(started)) u.startedAt = started;
    const double ended = optionalTime(state_, "ended_at");
    if (!std::isnan(ended)) u.endedAt = ended;
    u.failingRank = state_.value(QStringLiteral("failing_rank")).toInt(-1);
    u.failingHost = state_.value(QStringLiteral("failing_host")).toString();
    u.restarts = state_.value(QStringLiteral("attempt")).toInt();
    u.stepsDone = state_.value(QStringLiteral("steps_done")).toInt();
    if (state_.contains(QStringLiteral("final_loss"))) u.finalLoss = state_.value(QStringLiteral("final_loss")).toDouble();
    store_.updateRun(u);

    for (const QJsonValue& v : state_.value(QStringLiteral("attempts")).toArray()) {
        const QJsonObject a = v.toObject();
        store::AttemptRecord rec;
        rec.runId = runId_;
        rec.attempt = a.value(QStringLiteral("attempt")).toInt();
        rec.startedAt = optionalTime(a, "started_at");
        rec.endedAt = optionalTime(a, "ended_at");
        rec.status = a.value(QStringLiteral("status")).toString();
        rec.reason = a.value(QStringLiteral("reason")).toString();
        rec.failingRank = a.value(QStringLiteral("failing_rank")).toInt(-1);
        rec.resumeDir = a.value(QStringLiteral("resume_dir")).toString();
        store_.recordAttempt(rec);
    }
    const int attempt = state_.value(QStringLiteral("attempt")).toInt();
    if (attempt != attempt_) {
        attempt_ = attempt;
        Q_EMIT attemptChanged(attempt);
    }
    Q_EMIT stateChanged(status_, reason_, alive_);
}

void RunIngestor::takeLine(const QString& file, qint64 offset, const QByteArray& data)
{
    const QString src = file + QLatin1Char(':') + QString::number(offset);
    int attempt = 0, rank = 0;
    bool events = false;
    if (supervise::parseRankFile(file.toStdString(), &attempt, &rank, &events)) {
        if (events) takeEvent(attempt, rank, src, data);
        else takeLog(attempt, rank, src, data);
    } else if (file == QLatin1String(supervise::kSupervisorLog)) {
        takeLog(attempt_, -1, src, data);
    }
}

void RunIngestor::takeEvent(int attempt, int rank, const QString& src, const QByteArray& data)
{
    const QByteArray line = QByteArray(protocol::kEventPrefix) + data;
    protocol::ParsedLine p = protocol::parseOutputLine(line);
    if (p.kind != protocol::ParsedLine::Event) {
        ++malformed_;
        return;
    }
    protocol::CoreEvent& e = p.event;
    e.rank = rank; // the file is the authority on its rank
    if (auto step = protocol::stepFromEvent(e)) {
        step->attempt = attempt;
        store_.addStepMetrics({runId_, *step});
        Q_EMIT stepReported(*step);
        return;
    }
    // The same budget as a supervised run's; what is over it stays in the run directory.
    qint64& stored = eventBytes_[{attempt, rank}];
    if (!isEssentialEvent(e.type, data.size(), caps_) && stored + data.size() > caps_.eventBytes) {
        ++skipped_[{attempt, rank}];
        return;
    }
    stored += data.size();
    store::EventRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = e.t;
    r.type = e.type;
    r.json = data;
    r.src = src;
    store_.addEvent(r);
    if (auto c = protocol::checkpointFromEvent(e)) {
        store::CheckpointRecord ck;
        ck.runId = runId_;
        ck.attempt = attempt;
        ck.rank = rank;
        ck.step = c->step;
        ck.path = c->path;
        ck.host = hostOfRank_.value(rank);
        ck.worldSize = worldSize_;
        ck.bytes = c->bytes;
        ck.checksum = c->checksum;
        ck.kind = c->kind;
        ck.status = c->status;
        ck.message = c->message;
        ck.ms = c->ms;
        ck.t = c->t;
        ck.src = src;
        store_.addCheckpoint(ck);
    }
}

void RunIngestor::takeLog(int attempt, int rank, const QString& src, const QByteArray& data)
{
    const QJsonObject o = QJsonDocument::fromJson(data).object();
    if (!o.contains(QStringLiteral("l"))) {
        ++malformed_;
        return;
    }
    store::LogRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = o.value(QStringLiteral("t")).toDouble();
    const QString s = o.value(QStringLiteral("s")).toString();
    r.stream = rank < 0 ? store::LogStream::Launcher : s == QLatin1String("e") ? store::LogStream::Stderr : store::LogStream::Stdout;
    r.line = o.value(QStringLiteral("l")).toString();
    r.src = src;
    if (s == QLatin1String("m")) ++malformed_;
    Q_EMIT logLine(attempt, rank, r.line);
    if (rank >= 0) {
        int& stored = logLines_[{attempt, rank}];
        if (stored >= caps_.headLines) {
            ++skipped_[{attempt, rank}];
            return;
        }
        ++stored;
    }
    store_.addLog(r);
}

void RunIngestor::saveOffsets()
{
    for (const QString& f : dirty_) store_.setIngestOffset({runId_, f, offsets_.value(f)});
    dirty_.clear();
    store::RunUpdate u;
    if (malformed_ > 0) {
        u.runId = runId_;
        u.malformedLines = malformed_;
        store_.updateRun(u);
    }
}

} // namespace sb::launch
