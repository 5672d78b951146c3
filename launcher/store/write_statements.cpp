#include "write_statements.hpp"

#include "metric_columns.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QVariant>

#include <sqlite3.h>

#include <cmath>

namespace sb::store {

namespace {

// NaN and -1 mean "absent" in the records and become NULL in the database.
QVariant real(double v) { return std::isnan(v) ? QVariant(QMetaType::fromType<double>()) : QVariant(v); }
QVariant count(qint64 v) { return v < 0 ? QVariant(QMetaType::fromType<qint64>()) : QVariant(v); }
QVariant rankOrNull(int v) { return v < 0 ? QVariant(QMetaType::fromType<int>()) : QVariant(v); }
QVariant textOrNull(const QString& s) { return s.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s); }
QString stringsJson(const QStringList& hosts)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(hosts)).toJson(QJsonDocument::Compact));
}

// The step_metrics insert: the row's key and t, then every metric column.
std::string metricsInsertSql()
{
    std::string sql = "INSERT OR REPLACE INTO step_metrics (run_id, rank, step, attempt, t, " + metricColumnList() +
                      ") VALUES (?, ?, ?, ?, ?";
    for (std::size_t i = 0; i < metricInfos().size(); ++i) sql += ", ?";
    return sql + ")";
}
Status run(QSqlQuery& q)
{
    if (q.exec()) return {};
    return qtError(q.lastError().text());
}

} // namespace

WriteStatements::WriteStatements(QSqlDatabase db) : db_(std::move(db))
{
    createRun_ = prepare(QStringLiteral(
        "INSERT INTO runs (uid, name, plan_json, backend, hosts_json, world_size, status, created_at, parent_run, "
        "resumed_from, max_restarts, launcher_host, launcher_pid, run_dir, attach_json, init_from, engine, "
        "script, script_args_json, python) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    attempt_ = prepare(QStringLiteral(
        "INSERT OR REPLACE INTO run_attempts (run_id, attempt, started_at, ended_at, status, reason, failing_rank, "
        "resume_dir, reason_code, reason_args) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    if (Result<SqliteStatement> m = SqliteStatement::prepare(sqliteHandle(db_), metricsInsertSql().c_str()))
        metrics_ = std::move(m).value();
    else if (prepared_)
        prepared_ = m.status();
    event_ = prepare(QStringLiteral(
        "INSERT INTO events (run_id, attempt, rank, t, type, json, src) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING"));
    system_ = prepare(QStringLiteral("INSERT INTO system_samples (run_id, attempt, rank, t, src, ") + systemColumnList() +
                      QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"));
    log_ = prepare(QStringLiteral(
        "INSERT INTO logs (run_id, attempt, rank, t, stream, line, src) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING"));
    checkpoint_ = prepare(QStringLiteral(
        "INSERT INTO checkpoints (run_id, attempt, rank, step, path, host, world_size, bytes, checksum, kind, "
        "status, message, ms, t, src) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"));
    offset_ = prepare(QStringLiteral(
        "INSERT INTO ingest_offsets (run_id, file, next_offset) VALUES (?, ?, ?) ON CONFLICT(run_id, file) "
        "DO UPDATE SET next_offset = max(next_offset, excluded.next_offset)"));
    host_ = prepare(QStringLiteral(
        "INSERT INTO hosts (name, hostname, user, port, slots, key_fingerprint, last_used) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(name) DO UPDATE SET hostname = excluded.hostname, user = excluded.user, port = excluded.port, "
        "slots = excluded.slots, key_fingerprint = COALESCE(excluded.key_fingerprint, hosts.key_fingerprint), "
        "last_used = excluded.last_used"));
}

QSqlQuery WriteStatements::prepare(const QString& sql)
{
    QSqlQuery q(db_);
    if (!q.prepare(sql) && prepared_) prepared_ = qtError(sql + QStringLiteral(": ") + q.lastError().text());
    return q;
}

Result<qint64> WriteStatements::createRun(const NewRun& r)
{
    QSqlQuery& q = createRun_;
    q.bindValue(0, r.uid);
    q.bindValue(1, r.name.isNull() ? QString(QLatin1String("")) : r.name);
    q.bindValue(2, r.planJson);
    q.bindValue(3, r.backend);
    q.bindValue(4, stringsJson(r.hosts));
    q.bindValue(5, r.worldSize);
    q.bindValue(6, statusName(RunStatus::Starting));
    q.bindValue(7, r.createdAt);
    q.bindValue(8, r.parentRun ? QVariant(*r.parentRun) : QVariant(QMetaType::fromType<qint64>()));
    q.bindValue(9, textOrNull(r.resumedFrom.isEmpty() ? QString() : r.resumedFrom));
    q.bindValue(10, r.maxRestarts);
    q.bindValue(11, textOrNull(r.launcherHost.isEmpty() ? QString() : r.launcherHost));
    q.bindValue(12, count(r.launcherPid));
    q.bindValue(13, textOrNull(r.runDir.isEmpty() ? QString() : r.runDir));
    q.bindValue(14, textOrNull(r.attachJson.isEmpty() ? QString() : r.attachJson));
    q.bindValue(15, textOrNull(r.initFrom.isEmpty() ? QString() : r.initFrom));
    q.bindValue(16, textOrNull(r.engine.isEmpty() ? QString() : r.engine));
    q.bindValue(17, textOrNull(r.script.isEmpty() ? QString() : r.script));
    q.bindValue(18, r.scriptArgs.isEmpty() ? textOrNull(QString()) : QVariant(stringsJson(r.scriptArgs)));
    q.bindValue(19, textOrNull(r.python.isEmpty() ? QString() : r.python));
    if (Status s = run(q); !s) return s;
    return q.lastInsertId().toLongLong();
}

Status WriteStatements::updateRun(const RunUpdate& u)
{
    // Few updates per run: built per call, with only the fields given.
    QStringList sets;
    QVariantList values;
    auto add = [&](const char* column, QVariant v) {
        sets << QString::fromLatin1(column) + QStringLiteral(" = ?");
        values << std::move(v);
    };
    if (u.status) add("status", statusName(*u.status));
    if (u.startedAt) add("started_at", real(*u.startedAt));
    if (u.endedAt) add("ended_at", real(*u.endedAt));
    if (u.reason) {
        add("reason", textOrNull(*u.reason));
        add("reason_code", textOrNull(u.reasonCode.isEmpty() ? QString() : u.reasonCode));
        add("reason_args", textOrNull(u.reasonCode.isEmpty() ? QString() : stringsJson(u.reasonArgs)));
    }
    if (u.failingRank) add("failing_rank", rankOrNull(*u.failingRank));
    if (u.failingHost) add("failing_host", textOrNull(*u.failingHost));
    if (u.restarts) add("restarts", *u.restarts);
    if (u.stepsDone) add("steps_done", *u.stepsDone);
    if (u.finalLoss) add("final_loss", real(*u.finalLoss));
    if (u.malformedLines) add("malformed_lines", *u.malformedLines);
    if (u.hosts) add("hosts_json", stringsJson(*u.hosts));
    if (u.attachJson) add("attach_json", textOrNull(*u.attachJson));
    if (u.name) add("name", *u.name);
    if (u.tags) add("tags_json", u.tags->isEmpty() ? QVariant() : QVariant(stringsJson(*u.tags)));
    if (u.notes) add("notes", textOrNull(*u.notes));
    if (sets.isEmpty()) return {};
    QSqlQuery q(db_);
    if (!q.prepare(QStringLiteral("UPDATE runs SET ") + sets.join(QStringLiteral(", ")) + QStringLiteral(" WHERE id = ?")))
        return qtError(q.lastError().text());
    int i = 0;
    for (const QVariant& v : values) q.bindValue(i++, v);
    q.bindValue(i, u.runId);
    return run(q);
}

Status WriteStatements::deleteRun(const DeleteRun& d)
{
    // The schema's ON DELETE CASCADE takes the run's metrics, events, logs,
    // attempts, checkpoint records and ingest offsets with it; runs resumed
    // from it keep theirs (parent_run becomes NULL).
    QSqlQuery q(db_);
    if (!q.prepare(QStringLiteral("DELETE FROM runs WHERE id = ?"))) return qtError(q.lastError().text());
    q.bindValue(0, d.runId);
    return run(q);
}

Status WriteStatements::recordAttempt(const AttemptRecord& a)
{
    QSqlQuery& q = attempt_;
    q.bindValue(0, a.runId);
    q.bindValue(1, a.attempt);
    q.bindValue(2, real(a.startedAt));
    q.bindValue(3, real(a.endedAt));
    q.bindValue(4, a.status);
    q.bindValue(5, textOrNull(a.reason.isEmpty() ? QString() : a.reason));
    q.bindValue(6, rankOrNull(a.failingRank));
    q.bindValue(7, textOrNull(a.resumeDir.isEmpty() ? QString() : a.resumeDir));
    q.bindValue(8, textOrNull(a.reasonCode.isEmpty() ? QString() : a.reasonCode));
    q.bindValue(9, textOrNull(a.reasonCode.isEmpty() ? QString() : stringsJson(a.reasonArgs)));
    return run(q);
}

Status WriteStatements::addStepMetrics(const MetricRow& row)
{
    const protocol::StepMetrics& m = row.m;
    sqlite3_stmt* st = metrics_.get();
    auto real = [st](int i, double v) {
        if (std::isnan(v)) sqlite3_bind_null(st, i);
        else sqlite3_bind_double(st, i, v);
    };
    auto count = [st](int i, qint64 v) {
        if (v < 0) sqlite3_bind_null(st, i);
        else sqlite3_bind_int64(st, i, v);
    };
    sqlite3_bind_int64(st, 1, row.runId);
    sqlite3_bind_int(st, 2, m.rank);
    sqlite3_bind_int(st, 3, m.step);
    sqlite3_bind_int(st, 4, m.attempt);
    real(5, m.t);
    int i = 6;
    for (const MetricInfo& info : metricInfos()) {
        if (info.integer) count(i++, m.*info.field->count);
        else real(i++, m.*info.field->real);
    }
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return {};
    return qtError(sqliteError(sqliteHandle(db_)));
}

Status WriteStatements::addEvent(const EventRecord& e)
{
    QSqlQuery& q = event_;
    q.bindValue(0, e.runId);
    q.bindValue(1, e.attempt);
    q.bindValue(2, rankOrNull(e.rank));
    q.bindValue(3, e.t);
    q.bindValue(4, e.type);
    q.bindValue(5, e.json.isEmpty() ? QString(QLatin1String("")) : QString::fromUtf8(e.json));
    q.bindValue(6, textOrNull(e.src.isEmpty() ? QString() : e.src));
    return run(q);
}

Status WriteStatements::addSystemSample(const SystemSample& s)
{
    QSqlQuery& q = system_;
    q.bindValue(0, s.runId);
    q.bindValue(1, s.attempt);
    q.bindValue(2, s.rank);
    q.bindValue(3, s.t);
    q.bindValue(4, textOrNull(s.src.isEmpty() ? QString() : s.src));
    int i = 5;
    for (const SystemField& f : kSystemFields) q.bindValue(i++, f.real ? real(s.*f.real) : count(s.*f.count));
    return run(q);
}

Status WriteStatements::addLog(const LogRecord& l)
{
    QSqlQuery& q = log_;
    q.bindValue(0, l.runId);
    q.bindValue(1, l.attempt);
    q.bindValue(2, rankOrNull(l.rank));
    q.bindValue(3, l.t);
    q.bindValue(4, QString(QLatin1Char(static_cast<char>(l.stream))));
    q.bindValue(5, l.line.isNull() ? QString(QLatin1String("")) : l.line); // a blank line is a line, not NULL
    q.bindValue(6, textOrNull(l.src.isEmpty() ? QString() : l.src));
    return run(q);
}

Status WriteStatements::addCheckpoint(const CheckpointRecord& c)
{
    QSqlQuery& q = checkpoint_;
    q.bindValue(0, c.runId);
    q.bindValue(1, c.attempt);
    q.bindValue(2, rankOrNull(c.rank));
    q.bindValue(3, c.step);
    q.bindValue(4, c.path);
    q.bindValue(5, textOrNull(c.host.isEmpty() ? QString() : c.host));
    q.bindValue(6, c.worldSize);
    q.bindValue(7, count(c.bytes));
    q.bindValue(8, textOrNull(c.checksum.isEmpty() ? QString() : c.checksum));
    q.bindValue(9, textOrNull(c.kind.isEmpty() ? QString() : c.kind));
    q.bindValue(10, c.status.isEmpty() ? QStringLiteral("unknown") : c.status);
    q.bindValue(11, textOrNull(c.message.isEmpty() ? QString() : c.message));
    q.bindValue(12, real(c.ms));
    q.bindValue(13, c.t);
    q.bindValue(14, textOrNull(c.src.isEmpty() ? QString() : c.src));
    return run(q);
}

Status WriteStatements::upsertHost(const HostRecord& h)
{
    QSqlQuery& q = host_;
    q.bindValue(0, h.name);
    q.bindValue(1, textOrNull(h.hostname.isEmpty() ? QString() : h.hostname));
    q.bindValue(2, textOrNull(h.user.isEmpty() ? QString() : h.user));
    q.bindValue(3, h.port);
    q.bindValue(4, h.slots);
    q.bindValue(5, textOrNull(h.keyFingerprint.isEmpty() ? QString() : h.keyFingerprint));
    q.bindValue(6, h.lastUsed);
    return run(q);
}

Status WriteStatements::setIngestOffset(const IngestOffset& o)
{
    QSqlQuery& q = offset_;
    q.bindValue(0, o.runId);
    q.bindValue(1, o.file);
    q.bindValue(2, o.offset);
    return run(q);
}

} // namespace sb::store
