#include "run_ingestor.hpp"

#include "events/event_line.hpp"
#include "events/step_line.hpp"
#include "protocol/follow_records.hpp"
#include "protocol/run_dir_layout.hpp"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <utility>

namespace sb::launch {

namespace {

double timeOr(const std::optional<double>& t) { return t ? *t : store::kNoTime; }

QString q(const std::string& s) { return QString::fromStdString(s); }

// A reason as state.json writes it (docs/protocol.md): "reason" in English,
// and from supervisors that word it through the failure catalogue its
// "reason_code" and "reason_args"; a code this build does not know keeps the text only.
CodedReason reasonOf(const protocol::StateReason& s)
{
    CodedReason r;
    r.text = q(s.text);
    if (!failureCodeNamed(s.code)) return r;
    r.code = q(s.code);
    for (const std::string& a : s.args) r.args << q(a);
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

} // namespace

RunIngestor::RunIngestor(store::RunStore& store, qint64 runId, QHash<QString, qint64> offsets,
                         QHash<QPair<int, int>, int> storedLogLines, QHash<QPair<int, int>, qint64> storedEventBytes,
                         RecorderOptions caps)
    : store_(store), runId_(runId), rows_(store, runId, caps, std::move(storedLogLines), std::move(storedEventBytes))
{
    rows_.setPlace([this](int rank) { return hostOfRank_.value(rank); }, 0);
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
    return std::max({static_cast<int>(state_.stepsDone), stepsSeen_, storedSteps_, 0});
}

void RunIngestor::launcherLine(const QString& line, const QString& src)
{
    rows_.launcherLine(attempt_, line, src); // src: once per run, however often it is said
}

RunIngestor::FileState& RunIngestor::file(QByteArrayView name)
{
    auto it = files_.find(QByteArray::fromRawData(name.data(), name.size())); // no copy for a known file
    if (it != files_.end()) return *it;
    FileState f;
    f.name = QString::fromUtf8(name);
    bool events = false;
    if (protocol::parseRankFile(std::string_view(name.data(), static_cast<std::size_t>(name.size())), &f.attempt, &f.rank, &events))
        f.kind = events ? FileState::Kind::Events : FileState::Kind::Log;
    else if (name == QByteArrayView(protocol::kSupervisorLog))
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
    rows_.steps(std::exchange(steps_, {}));
}

void RunIngestor::takeOne(QByteArrayView record)
{
    const std::string_view text(record.data(), static_cast<std::size_t>(record.size()));
    if (!text.empty() && text[0] != '{') { // wire 2's line records, nearly all of them: read in place
        const std::optional<protocol::TextLineRecord> line = protocol::parseTextLineRecord(text);
        if (!line) {
            ++malformed_;
            return;
        }
        const auto view = [](std::string_view v) { return QByteArrayView(v.data(), static_cast<qsizetype>(v.size())); };
        takeLine(file(view(line->file)), line->offset, line->next, view(line->data), line->live);
        return;
    }
    takeJson(text);
}

void RunIngestor::takeJson(std::string_view text)
{
    using Kind = protocol::FollowRecord::Kind;
    const std::optional<protocol::FollowRecord> record = protocol::parseFollowRecord(text);
    if (!record) {
        ++malformed_;
        return;
    }
    const protocol::FollowRecord& r = *record;
    if (r.alive) alive_ = *r.alive;
    switch (r.kind) {
    case Kind::Beat:
        if (r.age >= 0) takeAge(r.age, r.t);
        return;
    case Kind::Line:
        return takeLine(file(QByteArrayView(r.file.data(), static_cast<qsizetype>(r.file.size()))), r.offset, r.next,
                        QByteArrayView(r.data.data(), static_cast<qsizetype>(r.data.size())), r.live);
    case Kind::State: return takeState(r);
    case Kind::Refused: return takeRefused(q(r.file), q(r.text));
    case Kind::Error: followerError_ = q(r.text); return;
    case Kind::End: return takeEnd();
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
        QString host = state_.supervisor ? q(state_.supervisor->host) : QString();
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
    const double refresh = state_.refreshS;
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

void RunIngestor::takeState(const protocol::FollowRecord& record)
{
    // A newer state may mean what this build would misread: refused, by name (older followers do not check).
    const QString file = (runDir_.isEmpty() ? QString() : runDir_ + QLatin1Char('/')) + QLatin1String(protocol::kStateFile);
    Result<protocol::RunState> read =
        protocol::readRunState(record.state, file.toStdString(), "update shardbench on this machine");
    if (!read) {
        followerError_ = q(read.error());
        return;
    }
    stateSeen_ = true;
    state_ = std::move(read).value();
    noteHeard(timeOr(state_.updatedAt));
    status_ = statusOf(q(state_.status));
    reason_ = reasonOf(state_.reason);
    // "restarting after: REASON" has no code of its own: it stays English, as the
    // workbench would otherwise show the bare reason of a run that trains on.
    if (state_.status == "restarting") reason_ = CodedReason{QStringLiteral("restarting after: ") + reason_.text, {}, {}, 0};
    // A failed run's English reason ends with its restarts; a reader words them from the count.
    if (status_ == store::RunStatus::Failed) reason_.restarts = state_.attempt;
    rows_.setWorldSize(state_.worldSize);
    // The hosts as the ranks ran on them ("node slots=N"): a Slurm run learns its nodes in the job.
    QStringList hosts;
    QHash<QString, int> slots;
    for (const protocol::StateRank& r : state_.ranks) {
        const QString host = q(r.host);
        hostOfRank_.insert(r.rank, host);
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
    if (state_.startedAt) u.startedAt = *state_.startedAt;
    if (state_.endedAt) u.endedAt = *state_.endedAt;
    u.failingRank = state_.failingRank;
    u.failingHost = q(state_.failingHost);
    u.restarts = state_.attempt;
    u.stepsDone = stepsDone();
    if (state_.finalLoss) u.finalLoss = *state_.finalLoss;
    store_.updateRun(u);

    for (const protocol::StateAttempt& a : state_.attempts) {
        store::AttemptRecord rec;
        rec.runId = runId_;
        rec.attempt = a.attempt;
        rec.startedAt = timeOr(a.startedAt);
        rec.endedAt = timeOr(a.endedAt);
        rec.status = q(a.status);
        recordReason(rec, a.reason ? reasonOf(*a.reason) : CodedReason{});
        rec.failingRank = a.failingRank;
        rec.resumeDir = q(a.resumeDir);
        store_.recordAttempt(rec);
    }
    if (state_.attempt != attempt_) {
        attempt_ = state_.attempt;
        Q_EMIT attemptChanged(attempt_);
    }
    Q_EMIT stateChanged(status_, reason_, alive_);
    if (record.age >= 0) takeAge(record.age, 0);
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
    // What is over the budget stays in the run directory.
    rows_.event(attempt, e, data.toByteArray(), f.name + QLatin1Char(':') + QString::number(offset));
    if (std::optional<protocol::System> sample = protocol::eventAs<protocol::System>(e))
        Q_EMIT systemSampled(systemSampleRecord(runId_, attempt, e, *sample));
}

void RunIngestor::takeLog(FileState& f, qint64 offset, QByteArrayView data)
{
    const int rank = f.kind == FileState::Kind::Supervisor ? -1 : f.rank;
    const int attempt = rank < 0 ? attempt_ : f.attempt;
    const std::optional<protocol::LogLine> line =
        protocol::parseLogRecord(std::string_view(data.data(), static_cast<std::size_t>(data.size())));
    if (!line) {
        ++malformed_;
        return;
    }
    store::LogRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = line->t;
    r.stream = rank < 0 ? store::LogStream::Launcher : line->stream == 'e' ? store::LogStream::Stderr : store::LogStream::Stdout;
    r.line = q(line->line);
    r.src = f.name + QLatin1Char(':') + QString::number(offset);
    noteHeard(r.t);
    if (line->stream == 'm') ++malformed_;
    Q_EMIT logLine(attempt, rank, r.line);
    if (rank >= 0) rows_.rankLog(r); // past the head cap, the rest stays in the run directory
    else store_.addLog(r);
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
