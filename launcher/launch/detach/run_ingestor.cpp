#include "run_ingestor.hpp"

#include "protocol/event_line.hpp"
#include "protocol/step_line.hpp"
#include "supervisor/run_dir.hpp"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <utility>

namespace sb::launch {

namespace {

double optionalTime(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : store::kNoTime;
}

// A reason as state.json writes it (docs/launcher.md): "reason" in English,
// and from supervisors that word it through the failure catalogue its
// "reason_code" and "reason_args"; a code this build does not know keeps the text only.
CodedReason reasonOf(const QJsonObject& o)
{
    CodedReason r;
    r.text = o.value(QStringLiteral("reason")).toString();
    const QString code = o.value(QStringLiteral("reason_code")).toString();
    if (!failureCodeNamed(code.toStdString())) return r;
    r.code = code;
    for (const QJsonValue& a : o.value(QStringLiteral("reason_args")).toArray()) r.args << a.toString();
    return r;
}

store::RunStatus statusOf(const QString& s)
{
    if (s == QLatin1String("completed")) return store::RunStatus::Completed;
    if (s == QLatin1String("failed")) return store::RunStatus::Failed;
    if (s == QLatin1String("cancelled")) return store::RunStatus::Cancelled;
    if (s == QLatin1String("starting")) return store::RunStatus::Starting;
    return store::RunStatus::Running; // running, restarting
}

// "L FILE O N DATA" / "E FILE O N DATA" (wire 2): false when it is not one.
bool parseTextRecord(QByteArrayView r, QByteArrayView* file, qint64* o, qint64* n, QByteArrayView* data, bool* live)
{
    if (r.size() < 8 || (r[0] != 'L' && r[0] != 'E') || r[1] != ' ') return false;
    *live = r[0] == 'E';
    qsizetype i = 2;
    const qsizetype fileEnd = r.indexOf(' ', i);
    if (fileEnd <= i) return false;
    *file = r.sliced(i, fileEnd - i);
    i = fileEnd + 1;
    for (qint64* v : {o, n}) {
        qint64 x = 0;
        const qsizetype from = i;
        while (i < r.size() && r[i] >= '0' && r[i] <= '9' && i - from < 18) x = x * 10 + (r[i++] - '0');
        if (i == from || i >= r.size() || r[i] != ' ') return false;
        *v = x;
        ++i;
    }
    *data = r.sliced(i);
    return true;
}

} // namespace

RunIngestor::RunIngestor(store::RunStore& store, qint64 runId, QHash<QString, qint64> offsets,
                         QHash<QPair<int, int>, int> storedLogLines, QHash<QPair<int, int>, qint64> storedEventBytes,
                         RecorderOptions caps)
    : store_(store), runId_(runId), logLines_(std::move(storedLogLines)), eventBytes_(std::move(storedEventBytes)), caps_(caps)
{
    for (auto it = offsets.begin(); it != offsets.end(); ++it) file(it.key().toUtf8()).offset = it.value();
}

RunIngestor::FileState& RunIngestor::file(QByteArrayView name)
{
    auto it = files_.find(QByteArray::fromRawData(name.data(), name.size())); // no copy for a known file
    if (it != files_.end()) return *it;
    FileState f;
    f.name = QString::fromUtf8(name);
    bool events = false;
    if (supervise::parseRankFile(std::string_view(name.data(), static_cast<std::size_t>(name.size())), &f.attempt, &f.rank, &events))
        f.kind = events ? FileState::Kind::Events : FileState::Kind::Log;
    else if (name == QByteArrayView(supervise::kSupervisorLog))
        f.kind = FileState::Kind::Supervisor;
    return *files_.insert(name.toByteArray(), f);
}

QHash<QString, qint64> RunIngestor::offsets() const
{
    QHash<QString, qint64> out;
    for (const FileState& f : files_) out.insert(f.name, f.offset);
    return out;
}

void RunIngestor::take(const QList<QByteArray>& records)
{
    for (const QByteArray& r : records) takeOne(QByteArrayView(r));
    handOverSteps();
}

void RunIngestor::take(QByteArrayView record)
{
    takeOne(record);
    handOverSteps();
}

void RunIngestor::handOverSteps()
{
    if (!steps_.empty()) store_.addStepMetricsBatch(std::exchange(steps_, {}));
}

void RunIngestor::takeOne(QByteArrayView record)
{
    QByteArrayView name, data;
    qint64 at = 0, next = 0;
    bool live = false;
    if (!record.isEmpty() && record[0] != '{') {
        if (!parseTextRecord(record, &name, &at, &next, &data, &live) || next <= at) {
            ++malformed_;
            return;
        }
        takeLine(file(name), at, next, data, live);
        return;
    }
    takeJson(record);
}

void RunIngestor::takeJson(QByteArrayView record)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(record.data(), record.size()), &err);
    const QJsonObject o = doc.object();
    const QString kind = o.value(QStringLiteral("k")).toString();
    if (!doc.isObject() || kind.isEmpty()) {
        ++malformed_;
        return;
    }
    if (o.contains(QStringLiteral("alive"))) alive_ = o.value(QStringLiteral("alive")).toBool();
    if (kind == QLatin1String("l")) {
        const QString name = o.value(QStringLiteral("f")).toString();
        const qint64 at = static_cast<qint64>(o.value(QStringLiteral("o")).toDouble(-1));
        const qint64 next = static_cast<qint64>(o.value(QStringLiteral("n")).toDouble(-1));
        if (name.isEmpty() || at < 0 || next <= at) {
            ++malformed_;
            return;
        }
        takeLine(file(name.toUtf8()), at, next, o.value(QStringLiteral("d")).toString().toUtf8(),
                 o.value(QStringLiteral("live")).toBool());
    } else if (kind == QLatin1String("state")) {
        takeState(o);
    } else if (kind == QLatin1String("error")) {
        followerError_ = o.value(QStringLiteral("message")).toString();
    } else if (kind == QLatin1String("end")) {
        takeEnd();
    }
}

void RunIngestor::takeEnd()
{
    ended_ = true;
    // A supervisor that is gone without a final state died with its run.
    if (alive_ || store::isFinal(status_)) return;
    const double heard = state_.value(QStringLiteral("updated_at")).toDouble();
    status_ = store::RunStatus::Failed;
    const QString host = state_.value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("host")).toString();
    const QString when = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(heard * 1000)).toString(Qt::ISODate);
    reason_ = launch::codedReason({FailureCode::SupervisorGone, {host.toStdString(), when.toStdString()}});
    store::RunUpdate u;
    u.runId = runId_;
    u.status = status_;
    recordReason(u, reason_);
    store_.updateRun(u);
    Q_EMIT stateChanged(status_, reason_, false);
}

void RunIngestor::takeLine(FileState& f, qint64 offset, qint64 next, QByteArrayView data, bool live)
{
    if (next <= f.offset) return; // already stored
    if (live) {
        if (!f.aheadLive.contains(offset)) {
            f.aheadLive.insert(offset);
            storeLine(f, offset, data);
        }
        return;
    }
    if (!f.aheadLive.remove(offset)) storeLine(f, offset, data);
    f.offset = next;
    f.dirty = true;
}

void RunIngestor::storeLine(FileState& f, qint64 offset, QByteArrayView data)
{
    switch (f.kind) {
    case FileState::Kind::Events: return takeEvent(f, offset, data);
    case FileState::Kind::Log:
    case FileState::Kind::Supervisor: return takeLog(f, offset, data);
    case FileState::Kind::Other: return;
    }
}

void RunIngestor::takeState(const QJsonObject& record)
{
    state_ = record.value(QStringLiteral("state")).toObject();
    const QString status = state_.value(QStringLiteral("status")).toString();
    status_ = statusOf(status);
    reason_ = reasonOf(state_);
    // "restarting after: REASON" has no code of its own: it stays English, as the
    // workbench would otherwise show the bare reason of a run that trains on.
    if (status == QLatin1String("restarting")) reason_ = CodedReason{QStringLiteral("restarting after: ") + reason_.text, {}, {}, 0};
    // A failed run's English reason ends with its restarts; a reader words them from the count.
    if (status_ == store::RunStatus::Failed) reason_.restarts = state_.value(QStringLiteral("attempt")).toInt();
    worldSize_ = state_.value(QStringLiteral("world_size")).toInt();
    // The hosts as the ranks ran on them ("node slots=N"): a Slurm run learns its nodes in the job.
    QStringList hosts;
    QHash<QString, int> slots;
    for (const QJsonValue& r : state_.value(QStringLiteral("ranks")).toArray()) {
        const QString host = r.toObject().value(QStringLiteral("host")).toString();
        hostOfRank_.insert(r.toObject().value(QStringLiteral("rank")).toInt(), host);
        if (!slots.contains(host)) hosts << host;
        ++slots[host];
    }

    store::RunUpdate u;
    u.runId = runId_;
    if (!hosts.isEmpty()) {
        for (QString& h : hosts) h += QStringLiteral(" slots=%1").arg(slots.value(h));
        u.hosts = hosts;
    }
    u.status = status_;
    recordReason(u, reason_);
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
        recordReason(rec, reasonOf(a));
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

void RunIngestor::takeEvent(FileState& f, qint64 offset, QByteArrayView data)
{
    if (std::optional<protocol::StepMetrics> step = protocol::parseFlatStep(data)) { // nearly every line
        step->rank = f.rank; // the file is the authority on its rank
        step->attempt = f.attempt;
        steps_.push_back({runId_, *step});
        if (steps_.size() >= 8192) handOverSteps();
        Q_EMIT stepReported(*step);
        return;
    }
    protocol::ParsedLine p = protocol::parseEventBody(data);
    if (p.kind != protocol::ParsedLine::Event) {
        ++malformed_;
        return;
    }
    protocol::CoreEvent& e = p.event;
    const int attempt = f.attempt, rank = f.rank;
    e.rank = rank; // the file is the authority on its rank
    if (auto step = protocol::stepFromEvent(e)) {
        step->attempt = attempt;
        steps_.push_back({runId_, *step});
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
    const QString src = f.name + QLatin1Char(':') + QString::number(offset);
    store::EventRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = e.t;
    r.type = e.type;
    r.json = data.toByteArray();
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

void RunIngestor::takeLog(FileState& f, qint64 offset, QByteArrayView data)
{
    const int rank = f.kind == FileState::Kind::Supervisor ? -1 : f.rank;
    const int attempt = rank < 0 ? attempt_ : f.attempt;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromRawData(data.data(), data.size())).object();
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
    r.src = f.name + QLatin1Char(':') + QString::number(offset);
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
    handOverSteps(); // the rows before the offsets that cover them
    for (FileState& f : files_) {
        if (!f.dirty) continue;
        store_.setIngestOffset({runId_, f.name, f.offset});
        f.dirty = false;
    }
    store::RunUpdate u;
    if (malformed_ > 0) {
        u.runId = runId_;
        u.malformedLines = malformed_;
        store_.updateRun(u);
    }
}

} // namespace sb::launch
