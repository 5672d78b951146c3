#include "run_reader.hpp"

#include "connection.hpp"
#include "sqlite_handle.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QVariant>

#include <sqlite3.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <limits>

namespace sb::store {

namespace {

double realOf(const QVariant& v) { return v.isNull() ? kNoTime : v.toDouble(); }

// A JSON array of strings as stored (reason_args); empty for NULL.
QStringList stringsOf(const QVariant& v)
{
    QStringList out;
    for (const QJsonValue& a : QJsonDocument::fromJson(v.toString().toUtf8()).array()) out << a.toString();
    return out;
}
qint64 countOf(const QVariant& v) { return v.isNull() ? -1 : v.toLongLong(); }
int rankOf(const QVariant& v) { return v.isNull() ? -1 : v.toInt(); }

const char* kRunColumns =
    "id, uid, name, backend, hosts_json, world_size, status, created_at, started_at, ended_at, reason, "
    "failing_rank, failing_host, parent_run, resumed_from, max_restarts, restarts, steps_done, final_loss, "
    "malformed_lines, launcher_host, launcher_pid, run_dir, attach_json, reason_code, reason_args, tags_json, notes, init_from, engine, "
    "script, script_args_json, python";

} // namespace

bool RunRow::isAbandoned() const
{
    if (status != statusName(RunStatus::Starting) && status != statusName(RunStatus::Running)) return false;
    if (isDetached()) return false; // its supervisor lives on the cluster: attach to learn its fate
    if (launcherPid <= 0 || launcherHost != QSysInfo::machineHostName()) return false;
    // kill(pid, 0): ESRCH means no such process; EPERM means it exists.
    return ::kill(static_cast<pid_t>(launcherPid), 0) != 0 && errno == ESRCH;
}

bool RunRow::mayStillRun() const
{
    return (status == statusName(RunStatus::Starting) || status == statusName(RunStatus::Running)) && !isAbandoned();
}

Result<std::unique_ptr<RunReader>> RunReader::open(const QString& path)
{
    OpenOptions o;
    o.create = false;
    Result<QSqlDatabase> db = openStoreConnection(path, o);
    if (!db) return db.status();
    return std::unique_ptr<RunReader>(new RunReader(db.value()));
}

RunReader::~RunReader() { closeStoreConnection(db_); }

QList<RunRow> RunReader::queryRuns(const QString& where, const QVariantList& args, int limit, bool withPlan)
{
    QList<RunRow> out;
    QString sql = QStringLiteral("SELECT ") + QLatin1String(kRunColumns) +
                  (withPlan ? QStringLiteral(", plan_json") : QString()) + QStringLiteral(" FROM runs");
    if (!where.isEmpty()) sql += QStringLiteral(" WHERE ") + where;
    sql += QStringLiteral(" ORDER BY id DESC");
    if (limit > 0) sql += QStringLiteral(" LIMIT %1").arg(limit);
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    if (!q.prepare(sql)) {
        lastError_ = q.lastError().text();
        return out;
    }
    for (int i = 0; i < args.size(); ++i) q.bindValue(i, args[i]);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        RunRow r;
        r.id = q.value(0).toLongLong();
        r.uid = q.value(1).toString();
        r.name = q.value(2).toString();
        r.backend = q.value(3).toString();
        for (const QJsonValue& h : QJsonDocument::fromJson(q.value(4).toString().toUtf8()).array())
            r.hosts << h.toString();
        r.worldSize = q.value(5).toInt();
        r.status = q.value(6).toString();
        r.createdAt = realOf(q.value(7));
        r.startedAt = realOf(q.value(8));
        r.endedAt = realOf(q.value(9));
        r.reason = q.value(10).toString();
        r.failingRank = rankOf(q.value(11));
        r.failingHost = q.value(12).toString();
        r.parentRun = countOf(q.value(13));
        r.resumedFrom = q.value(14).toString();
        r.maxRestarts = q.value(15).toInt();
        r.restarts = q.value(16).toInt();
        r.stepsDone = q.value(17).isNull() ? -1 : q.value(17).toInt();
        r.finalLoss = realOf(q.value(18));
        r.malformedLines = q.value(19).toLongLong();
        r.launcherHost = q.value(20).toString();
        r.launcherPid = countOf(q.value(21));
        r.runDir = q.value(22).toString();
        r.attachJson = q.value(23).toString();
        r.reasonCode = q.value(24).toString();
        r.reasonArgs = stringsOf(q.value(25));
        r.tags = stringsOf(q.value(26));
        r.notes = q.value(27).toString();
        r.initFrom = q.value(28).toString();
        r.engine = q.value(29).toString();
        r.script = q.value(30).toString();
        r.scriptArgs = stringsOf(q.value(31));
        r.python = q.value(32).toString();
        if (withPlan) r.planJson = q.value(33).toString();
        out << r;
    }
    return out;
}

QList<RunRow> RunReader::listRuns(int limit) { return queryRuns({}, {}, limit, false); }

std::optional<RunRow> RunReader::run(qint64 id)
{
    const QList<RunRow> rows = queryRuns(QStringLiteral("id = ?"), {QVariant(id)}, 1, true);
    if (rows.isEmpty()) return std::nullopt;
    return rows.front();
}

std::optional<RunRow> RunReader::findRun(const QString& ref)
{
    lastError_.clear();
    const QString r = ref.trimmed();
    if (r.isEmpty()) {
        lastError_ = QStringLiteral("empty run reference");
        return std::nullopt;
    }
    bool isNumber = false;
    const qint64 id = r.toLongLong(&isNumber);
    if (isNumber)
        if (auto row = run(id)) return row;
    QList<RunRow> rows = queryRuns(QStringLiteral("uid = ?"), {QVariant(r)}, 1, true);
    if (!rows.isEmpty()) return rows.front();
    // A uid prefix, as with git hashes; LIKE wildcards in the input are escaped.
    QString escaped = r;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    rows = queryRuns(QStringLiteral("uid LIKE ? ESCAPE '\\'"), {QVariant(QString(escaped + QLatin1Char('%')))}, 3, true);
    if (rows.size() == 1) return rows.front();
    if (rows.size() > 1) {
        lastError_ = QStringLiteral("\"%1\" matches several runs; give more of the id").arg(r);
        return std::nullopt;
    }
    rows = queryRuns(QStringLiteral("name = ?"), {QVariant(r)}, 1, true);
    if (!rows.isEmpty()) return rows.front();
    if (lastError_.isEmpty()) lastError_ = QStringLiteral("no run \"%1\" in the store").arg(r);
    return std::nullopt;
}

QList<AttemptRecord> RunReader::attempts(qint64 runId)
{
    QList<AttemptRecord> out;
    QSqlQuery q(db_);
    q.prepare(QStringLiteral("SELECT attempt, started_at, ended_at, status, reason, failing_rank, resume_dir, reason_code, reason_args "
                             "FROM run_attempts WHERE run_id = ? ORDER BY attempt"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        AttemptRecord a;
        a.runId = runId;
        a.attempt = q.value(0).toInt();
        a.startedAt = realOf(q.value(1));
        a.endedAt = realOf(q.value(2));
        a.status = q.value(3).toString();
        a.reason = q.value(4).toString();
        a.failingRank = rankOf(q.value(5));
        a.resumeDir = q.value(6).toString();
        a.reasonCode = q.value(7).toString();
        a.reasonArgs = stringsOf(q.value(8));
        out << a;
    }
    return out;
}

MetricSeries RunReader::series(qint64 runId, Metric metric, int rank, bool latestAttempt)
{
    MetricSeries s;
    // The column name comes from the fixed metric list, never from input.
    QByteArray sql = QByteArrayLiteral("SELECT rank, step, ") + metricInfo(metric).column +
                     QByteArrayLiteral(" FROM step_metrics WHERE run_id = ?");
    if (rank >= 0) sql += " AND rank = ?";
    sql += " ORDER BY rank, step, attempt";
    Result<SqliteStatement> prepared = SqliteStatement::prepare(sqliteHandle(db_), sql.constData());
    if (!prepared) {
        lastError_ = qtMessage(prepared);
        return s;
    }
    const SqliteStatement st = std::move(prepared).value();
    sqlite3_bind_int64(st.get(), 1, runId);
    if (rank >= 0) sqlite3_bind_int(st.get(), 2, rank);
    int rc;
    while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
        const int r = sqlite3_column_int(st.get(), 0);
        const int step = sqlite3_column_int(st.get(), 1);
        const double value = sqlite3_column_type(st.get(), 2) == SQLITE_NULL
                                 ? std::numeric_limits<double>::quiet_NaN()
                                 : sqlite3_column_double(st.get(), 2);
        // Rows come ordered by attempt within (rank, step): a repeat replaces.
        if (latestAttempt && !s.steps.isEmpty() && s.steps.back() == step && s.ranks.back() == r) {
            s.values.back() = value;
            continue;
        }
        s.ranks.append(r);
        s.steps.append(step);
        s.values.append(value);
    }
    if (rc != SQLITE_DONE) lastError_ = sqliteError(sqliteHandle(db_));
    return s;
}

bool RunReader::forEachStepRow(qint64 runId, int rank, const std::function<void(const MetricRow&)>& visit)
{
    QString sql = QStringLiteral("SELECT rank, step, attempt, t, ") + QString::fromStdString(metricColumnList()) +
                  QStringLiteral(" FROM step_metrics WHERE run_id = ?");
    if (rank >= 0) sql += QStringLiteral(" AND rank = ?");
    sql += QStringLiteral(" ORDER BY attempt, step, rank");
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(sql);
    q.bindValue(0, runId);
    if (rank >= 0) q.bindValue(1, rank);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return false;
    }
    MetricRow row;
    row.runId = runId;
    while (q.next()) {
        protocol::StepMetrics& m = row.m;
        m.rank = q.value(0).toInt();
        m.step = q.value(1).toInt();
        m.attempt = q.value(2).toInt();
        m.t = realOf(q.value(3));
        int col = 4;
        for (const MetricInfo& info : metricInfos()) {
            if (info.integer) m.*info.field->count = countOf(q.value(col++));
            else m.*info.field->real = realOf(q.value(col++));
        }
        visit(row);
    }
    return true;
}

QList<RankSummary> RunReader::rankSummaries(qint64 runId)
{
    QList<RankSummary> out;
    QSqlQuery q(db_);
    q.prepare(QStringLiteral("SELECT rank, COUNT(*), MAX(step), AVG(tokens_per_s), AVG(step_ms), MAX(mem_peak) "
                             "FROM step_metrics WHERE run_id = ? GROUP BY rank ORDER BY rank"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        RankSummary s;
        s.rank = q.value(0).toInt();
        s.steps = q.value(1).toInt();
        s.lastStep = q.value(2).toInt();
        s.meanTokensPerS = realOf(q.value(3));
        s.meanStepMs = realOf(q.value(4));
        s.peakMem = countOf(q.value(5));
        out << s;
    }
    return out;
}

QHash<QString, qint64> RunReader::ingestOffsets(qint64 runId)
{
    QHash<QString, qint64> out;
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT file, next_offset FROM ingest_offsets WHERE run_id = ?"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) out.insert(q.value(0).toString(), q.value(1).toLongLong());
    return out;
}

QHash<QPair<int, int>, int> RunReader::logLineCounts(qint64 runId)
{
    QHash<QPair<int, int>, int> out;
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT attempt, rank, count(*) FROM logs WHERE run_id = ? AND rank IS NOT NULL "
                             "GROUP BY attempt, rank"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) out.insert({q.value(0).toInt(), q.value(1).toInt()}, q.value(2).toInt());
    return out;
}

double RunReader::lastHeardAt(qint64 runId)
{
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT max(t) FROM (SELECT max(t) AS t FROM step_metrics WHERE run_id = ? "
                             "UNION ALL SELECT max(t) FROM events WHERE run_id = ? "
                             "UNION ALL SELECT max(t) FROM logs WHERE run_id = ?)"));
    for (int i = 0; i < 3; ++i) q.bindValue(i, runId);
    if (!q.exec() || !q.next()) {
        lastError_ = q.lastError().text();
        return kNoTime;
    }
    return realOf(q.value(0));
}

QHash<QPair<int, int>, qint64> RunReader::eventBytes(qint64 runId)
{
    QHash<QPair<int, int>, qint64> out;
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT attempt, rank, sum(length(CAST(json AS BLOB))) FROM events WHERE run_id = ? "
                             "AND rank IS NOT NULL GROUP BY attempt, rank"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) out.insert({q.value(0).toInt(), q.value(1).toInt()}, q.value(2).toLongLong());
    return out;
}

QList<LogRecord> RunReader::logs(qint64 runId, int rank, int attempt)
{
    QList<LogRecord> out;
    QString sql = QStringLiteral("SELECT attempt, rank, t, stream, line FROM logs WHERE run_id = ?");
    if (rank == -1) sql += QStringLiteral(" AND rank IS NULL");
    else if (rank >= 0) sql += QStringLiteral(" AND rank = ?");
    if (attempt >= 0) sql += QStringLiteral(" AND attempt = ?");
    sql += QStringLiteral(" ORDER BY id");
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(sql);
    int i = 0;
    q.bindValue(i++, runId);
    if (rank >= 0) q.bindValue(i++, rank);
    if (attempt >= 0) q.bindValue(i++, attempt);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        LogRecord l;
        l.runId = runId;
        l.attempt = q.value(0).toInt();
        l.rank = rankOf(q.value(1));
        l.t = q.value(2).toDouble();
        const QString s = q.value(3).toString();
        l.stream = s == QLatin1String("o") ? LogStream::Stdout : s == QLatin1String("l") ? LogStream::Launcher : LogStream::Stderr;
        l.line = q.value(4).toString();
        out << l;
    }
    return out;
}

QList<EventRecord> RunReader::events(qint64 runId, const QString& type)
{
    QList<EventRecord> out;
    QString sql = QStringLiteral("SELECT attempt, rank, t, type, json FROM events WHERE run_id = ?");
    if (!type.isEmpty()) sql += QStringLiteral(" AND type = ?");
    sql += QStringLiteral(" ORDER BY id");
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(sql);
    q.bindValue(0, runId);
    if (!type.isEmpty()) q.bindValue(1, type);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        EventRecord e;
        e.runId = runId;
        e.attempt = q.value(0).toInt();
        e.rank = rankOf(q.value(1));
        e.t = q.value(2).toDouble();
        e.type = q.value(3).toString();
        e.json = q.value(4).toString().toUtf8();
        out << e;
    }
    return out;
}

QList<CheckpointRecord> RunReader::checkpoints(qint64 runId)
{
    QList<CheckpointRecord> out;
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT attempt, rank, step, path, host, world_size, bytes, checksum, kind, status, "
                             "message, ms, t FROM checkpoints WHERE run_id = ? ORDER BY step, id"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        CheckpointRecord c;
        c.runId = runId;
        c.attempt = q.value(0).toInt();
        c.rank = rankOf(q.value(1));
        c.step = q.value(2).toInt();
        c.path = q.value(3).toString();
        c.host = q.value(4).toString();
        c.worldSize = q.value(5).toInt();
        c.bytes = countOf(q.value(6));
        c.checksum = q.value(7).toString();
        c.kind = q.value(8).toString();
        c.status = q.value(9).toString();
        c.message = q.value(10).toString();
        c.ms = realOf(q.value(11));
        c.t = q.value(12).toDouble();
        out << c;
    }
    return out;
}

QList<HostRecord> RunReader::hosts()
{
    QList<HostRecord> out;
    QSqlQuery q(db_);
    if (!q.exec(QStringLiteral("SELECT name, hostname, user, port, slots, key_fingerprint, last_used FROM hosts "
                               "ORDER BY name"))) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        HostRecord h;
        h.name = q.value(0).toString();
        h.hostname = q.value(1).toString();
        h.user = q.value(2).toString();
        h.port = q.value(3).toInt();
        h.slots = q.value(4).toInt();
        h.keyFingerprint = q.value(5).toString();
        h.lastUsed = q.value(6).toDouble();
        out << h;
    }
    return out;
}

} // namespace sb::store
