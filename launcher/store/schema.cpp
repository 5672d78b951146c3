#include "schema.hpp"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace sb::store {

namespace {

// Each entry takes the schema from version i to i + 1. Never edit a released
// entry: add a new one.
const char* const kMigrations[] = {
    // 0 -> 1: runs, per-rank step metrics, events, logs, checkpoints, hosts, saved plans.
    R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  plan_json TEXT NOT NULL,
  backend TEXT NOT NULL,
  hosts_json TEXT NOT NULL DEFAULT '[]',
  world_size INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  ended_at REAL,
  reason TEXT,
  failing_rank INTEGER,
  parent_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  resumed_from TEXT
);
CREATE TABLE step_metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  step INTEGER NOT NULL,
  t REAL,
  loss REAL, lr REAL, grad_norm REAL, tokens INTEGER, tokens_per_s REAL,
  step_ms REAL, forward_ms REAL, backward_ms REAL, optimizer_ms REAL, comm_exposed_ms REAL,
  mem_current INTEGER, mem_peak INTEGER, mem_reserved INTEGER, device_mem_used INTEGER,
  PRIMARY KEY (run_id, rank, step)
) WITHOUT ROWID;
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER,
  t REAL,
  type TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX events_by_run ON events(run_id, type);
CREATE TABLE logs (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER,
  t REAL,
  stream TEXT NOT NULL,
  line TEXT NOT NULL
);
CREATE INDEX logs_by_run ON logs(run_id, rank);
CREATE TABLE checkpoints (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  path TEXT NOT NULL,
  host TEXT,
  world_size INTEGER,
  bytes INTEGER,
  status TEXT NOT NULL,
  t REAL
);
CREATE INDEX checkpoints_by_run ON checkpoints(run_id, step);
CREATE TABLE hosts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  hostname TEXT,
  user TEXT,
  port INTEGER,
  slots INTEGER,
  last_used REAL
);
CREATE TABLE saved_plans (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  plan_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL
);
)sql",
    // 1 -> 2: supervision with restarts. Attempts get their own table and
    // every per-attempt row its attempt number; runs remember the launcher
    // process (to tell an abandoned run); checkpoints gain checksum, kind
    // and rank; hosts remember their public key fingerprint.
    R"sql(
ALTER TABLE runs ADD COLUMN max_restarts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN failing_host TEXT;
ALTER TABLE runs ADD COLUMN steps_done INTEGER;
ALTER TABLE runs ADD COLUMN final_loss REAL;
ALTER TABLE runs ADD COLUMN malformed_lines INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN launcher_host TEXT;
ALTER TABLE runs ADD COLUMN launcher_pid INTEGER;
CREATE TABLE run_attempts (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at REAL,
  ended_at REAL,
  status TEXT NOT NULL,
  reason TEXT,
  failing_rank INTEGER,
  resume_dir TEXT,
  PRIMARY KEY (run_id, attempt)
) WITHOUT ROWID;
CREATE TABLE step_metrics_v2 (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  step INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  t REAL,
  loss REAL, lr REAL, grad_norm REAL, tokens INTEGER, tokens_per_s REAL,
  step_ms REAL, forward_ms REAL, backward_ms REAL, optimizer_ms REAL, comm_exposed_ms REAL,
  mem_current INTEGER, mem_peak INTEGER, mem_reserved INTEGER, device_mem_used INTEGER,
  PRIMARY KEY (run_id, rank, step, attempt)
) WITHOUT ROWID;
INSERT INTO step_metrics_v2 (run_id, rank, step, attempt, t, loss, lr, grad_norm, tokens, tokens_per_s,
  step_ms, forward_ms, backward_ms, optimizer_ms, comm_exposed_ms, mem_current, mem_peak, mem_reserved, device_mem_used)
  SELECT run_id, rank, step, 0, t, loss, lr, grad_norm, tokens, tokens_per_s,
  step_ms, forward_ms, backward_ms, optimizer_ms, comm_exposed_ms, mem_current, mem_peak, mem_reserved, device_mem_used
  FROM step_metrics;
DROP TABLE step_metrics;
ALTER TABLE step_metrics_v2 RENAME TO step_metrics;
ALTER TABLE events ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE logs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE checkpoints ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE checkpoints ADD COLUMN rank INTEGER;
ALTER TABLE checkpoints ADD COLUMN kind TEXT;
ALTER TABLE checkpoints ADD COLUMN checksum TEXT;
ALTER TABLE checkpoints ADD COLUMN ms REAL;
ALTER TABLE checkpoints ADD COLUMN message TEXT;
ALTER TABLE hosts ADD COLUMN key_fingerprint TEXT;
)sql",
    // 2 -> 3: detached runs. A run remembers its directory on the cluster
    // and how to reach it; rows ingested from that directory carry their
    // source ("FILE:OFFSET"), unique per run, so a line fetched twice is
    // stored once; ingest_offsets says how far each file was read.
    R"sql(
ALTER TABLE runs ADD COLUMN run_dir TEXT;
ALTER TABLE runs ADD COLUMN attach_json TEXT;
ALTER TABLE events ADD COLUMN src TEXT;
ALTER TABLE logs ADD COLUMN src TEXT;
ALTER TABLE checkpoints ADD COLUMN src TEXT;
CREATE UNIQUE INDEX events_by_src ON events(run_id, src) WHERE src IS NOT NULL;
CREATE UNIQUE INDEX logs_by_src ON logs(run_id, src) WHERE src IS NOT NULL;
CREATE UNIQUE INDEX checkpoints_by_src ON checkpoints(run_id, src) WHERE src IS NOT NULL;
CREATE TABLE ingest_offsets (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  next_offset INTEGER NOT NULL,
  PRIMARY KEY (run_id, file)
) WITHOUT ROWID;
)sql",
    // 3 -> 4: a run's reason is also kept as a code of the failure catalogue
    // (core/plan/failure_reason.hpp) with its arguments as a JSON array of
    // strings, so a reader shows it in its own language; rows from before
    // keep only their English text. The saved_plans table, never written by
    // any program, goes.
    R"sql(
ALTER TABLE runs ADD COLUMN reason_code TEXT;
ALTER TABLE runs ADD COLUMN reason_args TEXT;
DROP TABLE saved_plans;
)sql",
    // 4 -> 5: an attempt's reason too (a detached run's supervisor words every
    // attempt through the failure catalogue); rows from before keep English only.
    R"sql(
ALTER TABLE run_attempts ADD COLUMN reason_code TEXT;
ALTER TABLE run_attempts ADD COLUMN reason_args TEXT;
)sql",
    // 5 -> 6: a person's words on a run, as W&B keeps them: tags (a JSON
    // array of strings) and free notes; the name was there from the start.
    R"sql(
ALTER TABLE runs ADD COLUMN tags_json TEXT;
ALTER TABLE runs ADD COLUMN notes TEXT;
)sql",
    // 6 -> 7: the validation loss and its perplexity, on the steps that took
    // it; the weights a run starts from (--init-from), when not a checkpoint.
    R"sql(
ALTER TABLE step_metrics ADD COLUMN eval_loss REAL;
ALTER TABLE step_metrics ADD COLUMN eval_perplexity REAL;
ALTER TABLE runs ADD COLUMN init_from TEXT;
)sql",
    // 7 -> 8: what the ranks ran, when not shardbench-core (every run before):
    // "pytorch", the plan's exported FSDP2 script or a script of the user's.
    R"sql(
ALTER TABLE runs ADD COLUMN engine TEXT;
)sql",
    // 8 -> 9: how a PyTorch run's ranks started, so that a checkpoint of it
    // restores as the same program: the script (NULL: the plan's exported
    // one), its arguments (a JSON array) and the Python.
    R"sql(
ALTER TABLE runs ADD COLUMN script TEXT;
ALTER TABLE runs ADD COLUMN script_args_json TEXT;
ALTER TABLE runs ADD COLUMN python TEXT;
)sql",
    // 9 -> 10: each rank's system samples (the `system` event): CPU
    // utilisation and host RSS, and the GPU's utilisation, power, temperature
    // and SM clock, every few seconds; src as in events.
    R"sql(
CREATE TABLE system_samples (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  t REAL NOT NULL,
  cpu_util REAL, host_rss INTEGER, gpu_util REAL, gpu_power_w REAL, gpu_temp_c REAL, gpu_sm_clock_mhz REAL,
  src TEXT
);
CREATE INDEX system_samples_by_run ON system_samples(run_id, rank, attempt, t);
CREATE UNIQUE INDEX system_samples_by_src ON system_samples(run_id, src) WHERE src IS NOT NULL;
)sql",
};

constexpr int kMigrationCount = static_cast<int>(sizeof(kMigrations) / sizeof(kMigrations[0]));
static_assert(kMigrationCount == kSchemaVersion, "one migration per schema version");

// QSqlQuery runs one statement at a time: split a script on ';' at line ends.
QStringList statements(const char* script)
{
    QStringList out;
    QString current;
    const QStringList lines = QString::fromUtf8(script).split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (line.trimmed().isEmpty()) continue;
        current += line + QLatin1Char('\n');
        if (line.trimmed().endsWith(QLatin1Char(';'))) {
            out << current.trimmed();
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty()) out << current.trimmed();
    return out;
}

} // namespace

int schemaVersion(QSqlDatabase& db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) return -1;
    return q.value(0).toInt();
}

Status migrate(QSqlDatabase& db, int target)
{
    const int from = schemaVersion(db);
    if (from < 0) return qtError(QStringLiteral("cannot read the schema version: ") + db.lastError().text());
    if (from > kSchemaVersion)
        return qtError(QStringLiteral("the database has schema version %1, newer than this program understands (%2); "
                                      "use a newer shardbench").arg(from).arg(kSchemaVersion));
    if (target > kSchemaVersion || target < from) return qtError(QStringLiteral("invalid schema target %1").arg(target));
    if (from == target) return {};

    QSqlQuery q(db);
    // BEGIN IMMEDIATE takes the write lock first, so two processes opening a
    // fresh database cannot both migrate it.
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return qtError(QStringLiteral("cannot start the migration: ") + q.lastError().text());
    const int current = schemaVersion(db); // re-read under the lock
    for (int v = current; v < target; ++v) {
        for (const QString& stmt : statements(kMigrations[v])) {
            if (!q.exec(stmt)) {
                const QString err = q.lastError().text();
                q.exec(QStringLiteral("ROLLBACK"));
                return qtError(QStringLiteral("migration to schema version %1 failed: %2").arg(v + 1).arg(err));
            }
        }
    }
    if (current < target && !q.exec(QStringLiteral("PRAGMA user_version = %1").arg(target))) {
        const QString err = q.lastError().text();
        q.exec(QStringLiteral("ROLLBACK"));
        return qtError(QStringLiteral("cannot record the schema version: ") + err);
    }
    if (!q.exec(QStringLiteral("COMMIT"))) {
        const QString err = q.lastError().text();
        q.exec(QStringLiteral("ROLLBACK"));
        return qtError(QStringLiteral("cannot commit the migration: ") + err);
    }
    return {};
}

} // namespace sb::store
