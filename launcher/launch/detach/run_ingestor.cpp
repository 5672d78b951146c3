#include "run_ingestor.hpp"

#include "protocol/event_line.hpp"
#include "protocol/step_line.hpp"
#include "supervisor/run_dir.hpp"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
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

void RunIngestor::setStoredRun(const store::RunRow& row)
{
    runDir_ = row.runDir;
    storedSteps_ = row.stepsDone;
    const std::optional<store::RunStatus> status = store::parseStatus(row.status);
    storedFinal_ = status && store::isFinal(*status);
    if (stateSeen_ || !status) return;
    status_ = *status;
    reason_ = CodedReason{row.reason, row.reasonCode, row.reasonArgs, 0};
}

int RunIngestor::stepsDone() const
{
    return std::max({state_.value(QStringLiteral("steps_done")).toInt(), stepsSeen_, storedSteps_, 0});
}

void RunIngestor::launcherLine(const QString& line, const QString& src)
{
    store::LogRecord r;
    r.runId = runId_;
    r.attempt = attempt_;
    r.rank = -1;
    r.t = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    r.stream = store::LogStream::Launcher;
    r.line = line;
    r.src = src; // once per run, however often it is said
    store_.addLog(r);
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
    for (const FileState& f : files_)
        if (f.kind != FileState::Kind::Other) out.insert(f.name, f.offset); // a name outside the layout is no file of ours
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
        FileState& f = file(name);
        takeLine(f, at, next, data, live);
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
    if (kind == QLatin1String("beat")) {
        const double t = o.value(QStringLiteral("t")).toDouble(0);
        if (o.contains(QStringLiteral("age"))) takeAge(o.value(QStringLiteral("age")).toDouble(-1), t);
        return;
    }
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
    } else if (kind == QLatin1String("refused")) {
        takeRefused(o.value(QStringLiteral("f")).toString(), o.value(QStringLiteral("why")).toString());
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
    store::RunUpdate u;
    u.runId = runId_;
    status_ = store::RunStatus::Failed;
    if (!stateSeen_) {
        // It never wrote a state: it did not start (or its directory lost it).
        const QString where = place_.isEmpty() ? QString() : QStringLiteral(" on ") + place_;
        reason_ = launch::codedReason({FailureCode::RunNotStarted,
            {QStringLiteral("no supervisor runs%1 and none recorded a state in %2").arg(where, runDir_.isEmpty() ? QStringLiteral("the run directory") : runDir_).toStdString()}});
    } else {
        QString host = state_.value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("host")).toString();
        if (host.isEmpty()) host = place_.isEmpty() ? QStringLiteral("an unknown host") : place_;
        // The newest of its last state and the last line seen: its state is rewritten only every few seconds.
        const QString when = lastHeardAt_ > 0
                                 ? QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(lastHeardAt_ * 1000)).toString(Qt::ISODate)
                                 : QStringLiteral("an unknown time");
        reason_ = launch::codedReason({FailureCode::SupervisorGone, {host.toStdString(), when.toStdString()}});
        u.stepsDone = stepsDone();
    }
    u.status = status_;
    recordReason(u, reason_);
    store_.updateRun(u);
    Q_EMIT stateChanged(status_, reason_, false);
}

void RunIngestor::takeAge(double age, double at)
{
    // The supervisor rewrites its state every refresh_s while it runs: silent for three of them, it is stopped (SIGSTOP) or stuck.
    const double refresh = state_.value(QStringLiteral("refresh_s")).toDouble(0);
    if (age < 0 || refresh <= 0 || !std::isfinite(age)) return;
    if (at > 0) noteHeard(at - age);
    const bool silent = alive_ && age > std::max(3 * refresh, 10.0);
    if (silent && !silentSaid_) {
        silentSaid_ = true;
        Q_EMIT notice(QStringLiteral("the supervisor has not been heard from for %1 s (it holds its lock but has not "
                                     "rewritten its state: stopped or stuck?)").arg(static_cast<qint64>(age)));
    } else if (!silent && silentSaid_) {
        silentSaid_ = false;
        Q_EMIT notice(QStringLiteral("the supervisor is heard from again"));
    }
}

void RunIngestor::takeRefused(const QString& file, const QString& why)
{
    const QString name = file.isEmpty() ? QStringLiteral("a file") : file;
    const QString line = QStringLiteral("%1 in the run directory was not read: %2 (only regular files inside the run "
                                        "directory are read, never through a link)").arg(name, why);
    launcherLine(line, name + QStringLiteral(":refused"));
    Q_EMIT notice(line);
}

void RunIngestor::refuseLine(FileState& f, qint64 offset, qint64 next, const QString& why)
{
    ++inconsistent_;
    ++malformed_;
    if (f.refusedSaid) return;
    f.refusedSaid = true;
    Q_EMIT notice(QStringLiteral("%1: a record of bytes %2-%3 was refused: %4").arg(f.name).arg(offset).arg(next).arg(why));
}

void RunIngestor::takeLine(FileState& f, qint64 offset, qint64 next, QByteArrayView data, bool live)
{
    if (f.kind == FileState::Kind::Other) { // no file of the run directory's layout
        ++malformed_;
        return;
    }
    // A line spans its text and its newline at most (the follower only lengthens invalid UTF-8).
    if (next - offset > data.size() + 1)
        return refuseLine(f, offset, next, QStringLiteral("it spans more bytes than its %1").arg(data.size()));
    if (next <= f.offset) return; // already stored
    if (offset < f.offset) return refuseLine(f, offset, next, QStringLiteral("it overlaps what is stored (to %1)").arg(f.offset));
    // In order, a line starts where the stored ones end: a gap would skip lines for ever.
    if (!live && offset != f.offset)
        return refuseLine(f, offset, next, QStringLiteral("the stored lines end at %1").arg(f.offset));
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
    const QJsonObject state = record.value(QStringLiteral("state")).toObject();
    // A newer state may mean what this build would misread: refused, by name (older followers do not check).
    const QJsonValue version = state.value(QStringLiteral("version"));
    if (version.toDouble(1) > supervise::kStateVersion) {
        const QString file = (runDir_.isEmpty() ? QString() : runDir_ + QLatin1Char('/')) + QLatin1String(supervise::kStateFile);
        followerError_ = QStringLiteral("%1 is version %2; this shardbench-cli reads version %3: update shardbench on this machine")
                             .arg(file).arg(version.toDouble()).arg(supervise::kStateVersion);
        return;
    }
    stateSeen_ = true;
    state_ = state;
    noteHeard(optionalTime(state_, "updated_at"));
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
    u.stepsDone = stepsDone();
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
    if (record.contains(QStringLiteral("age"))) takeAge(record.value(QStringLiteral("age")).toDouble(-1), 0);
}

void RunIngestor::takeEvent(FileState& f, qint64 offset, QByteArrayView data)
{
    if (std::optional<protocol::StepMetrics> step = protocol::parseFlatStep(data)) { // nearly every line
        step->rank = f.rank; // the file is the authority on its rank
        step->attempt = f.attempt;
        if (f.rank == 0) stepsSeen_ = std::max(stepsSeen_, step->step);
        noteHeard(step->t);
        steps_.push_back({runId_, *step});
        if (steps_.size() >= 8192) handOverSteps();
        Q_EMIT stepReported(*step);
        return;
    }
    protocol::ParsedLine p = protocol::parseEventBody(data);
    if (p.kind != protocol::ParsedLine::Event) {
        ++malformed_;
        if (p.newerVersion > 0 && ++newerVersion_ <= 20) {
            // Counted and said, not dropped in silence: the run's log keeps where (the first 20 of a session).
            const QString line = QStringLiteral("rank %1, attempt %2: an event of protocol version %3 was not read (this "
                                                "shardbench-cli reads version %4; update it): %5:%6")
                                     .arg(f.rank).arg(f.attempt).arg(p.newerVersion).arg(protocol::kProtocolVersion).arg(f.name).arg(offset);
            launcherLine(line, f.name + QLatin1Char(':') + QString::number(offset));
            if (newerVersion_ == 1) Q_EMIT notice(line);
        }
        return;
    }
    protocol::CoreEvent& e = p.event;
    const int attempt = f.attempt, rank = f.rank;
    e.rank = rank; // the file is the authority on its rank
    noteHeard(e.t);
    if (auto step = protocol::stepFromEvent(e)) {
        step->attempt = attempt;
        if (rank == 0) stepsSeen_ = std::max(stepsSeen_, step->step);
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
    noteHeard(r.t);
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
