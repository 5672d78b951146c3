#include "run_rows.hpp"

#include <QDateTime>

#include <algorithm>
#include <limits>
#include <utility>

namespace sb::launch {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

bool isEssentialEvent(const QString& type, qint64 bytes, const RecorderOptions& options)
{
    return (type == QLatin1String(protocol::type::hello) || type == QLatin1String(protocol::type::done) ||
            type == QLatin1String(protocol::type::error)) &&
           bytes <= options.essentialEventBytes;
}

store::CheckpointRecord checkpointRecord(qint64 runId, int attempt, int rank, double t, const protocol::CheckpointEvent& c)
{
    store::CheckpointRecord r;
    r.runId = runId;
    r.attempt = attempt;
    r.rank = rank;
    r.step = static_cast<int>(std::clamp<long long>(c.step, 0, std::numeric_limits<int>::max()));
    r.path = q(c.path);
    r.bytes = c.bytes && *c.bytes >= 0 ? *c.bytes : -1;
    r.checksum = q(c.checksum.value_or(std::string()));
    r.kind = q(c.kind);
    r.status = q(c.status);
    r.message = q(c.message.value_or(std::string()));
    r.ms = c.ms.value_or(store::kNoTime);
    r.t = t;
    return r;
}

store::SystemSample systemSampleRecord(qint64 runId, int attempt, const protocol::CoreEvent& e, const protocol::System& s)
{
    store::SystemSample r;
    r.runId = runId;
    r.rank = e.rank;
    r.attempt = attempt;
    r.t = e.t;
    // Absent: NaN for a real, -1 for the byte count (a negative one too), as SystemSample keeps them.
#define SB_SYSTEM_RECORD_real(member) r.member = s.member.value_or(std::numeric_limits<double>::quiet_NaN());
#define SB_SYSTEM_RECORD_whole(member) r.member = s.member && *s.member >= 0 ? *s.member : -1;
#define SB_SYSTEM_RECORD(name, member, kind) SB_SYSTEM_RECORD_##kind(member)
    SB_SYSTEM_FIELDS(SB_SYSTEM_RECORD)
#undef SB_SYSTEM_RECORD
#undef SB_SYSTEM_RECORD_whole
#undef SB_SYSTEM_RECORD_real
    return r;
}

RunRows::RunRows(store::RunStore& store, qint64 runId, RecorderOptions caps, QHash<Key, int> storedLogLines,
                 QHash<Key, qint64> storedEventBytes)
    : store_(store), runId_(runId), caps_(caps), logLines_(std::move(storedLogLines)), eventBytes_(std::move(storedEventBytes))
{
}

void RunRows::setPlace(std::function<QString(int)> hostOfRank, int worldSize)
{
    hostOfRank_ = std::move(hostOfRank);
    worldSize_ = worldSize;
}

void RunRows::event(int attempt, const protocol::CoreEvent& e, const QByteArray& json, const QString& src)
{
    if (std::optional<protocol::System> sample = protocol::eventAs<protocol::System>(e)) {
        store::SystemSample r = systemSampleRecord(runId_, attempt, e, *sample);
        r.src = src;
        store_.addSystemSample(r);
        return;
    }
    if (std::optional<protocol::CheckpointEvent> c = protocol::checkpointFromEvent(e)) {
        store::CheckpointRecord r = checkpointRecord(runId_, attempt, e.rank, e.t, *c);
        r.host = hostOfRank_ ? hostOfRank_(e.rank) : QString();
        r.worldSize = worldSize_;
        r.src = src;
        store_.addCheckpoint(r);
    }
    const Key key{attempt, e.rank};
    const qint64 size = json.size();
    qint64& stored = eventBytes_[key];
    if (!isEssentialEvent(e.type, size, caps_) && stored + size > caps_.eventBytes) {
        Dropped& d = dropped_[key];
        ++d.events;
        d.bytes += size;
        return;
    }
    stored += size;
    store::EventRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = e.rank;
    r.t = e.t;
    r.type = e.type;
    r.json = json;
    r.src = src;
    store_.addEvent(r);
}

bool RunRows::rankLog(store::LogRecord r)
{
    int& stored = logLines_[{r.attempt, r.rank}];
    if (stored >= caps_.headLines) return false;
    ++stored;
    r.runId = runId_;
    store_.addLog(r);
    return true;
}

void RunRows::launcherLine(int attempt, const QString& line, const QString& src, double t, int rank)
{
    store::LogRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = t > 0 ? t : QDateTime::currentMSecsSinceEpoch() / 1000.0;
    r.stream = store::LogStream::Launcher;
    r.line = line;
    r.src = src;
    store_.addLog(r);
}

void RunRows::step(const protocol::StepMetrics& m) { store_.addStepMetrics({runId_, m}); }

void RunRows::steps(std::vector<store::MetricRow> rows)
{
    if (!rows.empty()) store_.addStepMetricsBatch(std::move(rows));
}

QHash<RunRows::Key, RunRows::Dropped> RunRows::takeDroppedEvents() { return std::exchange(dropped_, {}); }

} // namespace sb::launch
