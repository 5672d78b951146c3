// Reading the run store, for the command line and the workbench's views.
// Each reader owns its own connection (WAL: readers never block the writer)
// and belongs to the thread that opened it.
#pragma once

#include "metric_columns.hpp"
#include "store_records.hpp"
#include "system_samples.hpp"

#include <QHash>
#include <QList>
#include <QPair>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

#include <functional>
#include <memory>
#include <optional>

namespace sb::store {

struct RunRow {
    qint64 id = -1;
    QString uid;
    QString name;
    QString backend;
    QStringList hosts;
    int worldSize = 0;
    QString status;          // as stored; parseStatus() for the enum
    double createdAt = kNoTime, startedAt = kNoTime, endedAt = kNoTime;
    QString reason;          // English, as recorded
    QString reasonCode;      // failure catalogue code, "" for rows with text only
    QStringList reasonArgs;
    int failingRank = -1;
    QString failingHost;
    qint64 parentRun = -1;
    QString resumedFrom;
    QString initFrom; // the weights it started from (--init-from), "" for none
    QString engine;   // what the ranks ran: "" shardbench-core, "pytorch"
    QString script;   // pytorch: the user's script, "" the plan's exported one
    QStringList scriptArgs;
    QString python;   // pytorch: the interpreter
    int maxRestarts = 0;
    int restarts = 0;
    int stepsDone = -1;
    double finalLoss = kNoTime;
    qint64 malformedLines = 0;
    QString launcherHost;
    qint64 launcherPid = -1;
    QString runDir;          // detached runs: the run directory on the cluster
    QString attachJson;      // detached runs: how to reach it
    QString planJson;        // filled by run() and findRun() only
    QStringList tags;        // a person's: the workbench's Tags
    QString notes;           // ... and Notes

    bool isDetached() const { return !runDir.isEmpty(); }

    // Still "starting" or "running", but its launcher process on this
    // machine is gone (killed, crashed, machine rebooted): it will never
    // finish. Unknown (false) for runs launched from another machine.
    bool isAbandoned() const;
    // Still "starting" or "running" and not abandoned: it may be training
    // now, here or on its cluster (deleting it is refused).
    bool mayStillRun() const;
};

// One metric as columns: point i is (ranks[i], steps[i], values[i]),
// ordered by rank then step. NULL values read as NaN.
struct MetricSeries {
    QVector<int> ranks;
    QVector<int> steps;
    QVector<double> values;
    qsizetype size() const { return steps.size(); }
};

struct RankSummary {
    int rank = 0;
    int steps = 0;           // step rows recorded
    int lastStep = 0;
    double meanTokensPerS = kNoTime;
    double meanStepMs = kNoTime;
    qint64 peakMem = -1;     // max of mem_peak
};

class RunReader {
public:
    // The file must exist; an older schema is migrated first. Or the error, naming the file.
    static Result<std::unique_ptr<RunReader>> open(const QString& path);
    ~RunReader();
    RunReader(const RunReader&) = delete;
    RunReader& operator=(const RunReader&) = delete;

    QString lastError() const { return lastError_; }

    QList<RunRow> listRuns(int limit = 0);   // newest first; 0: all
    std::optional<RunRow> run(qint64 id);
    // A run by id, uid, unique uid prefix, or name (the newest run of that
    // name). On failure returns nullopt with a sentence in lastError().
    std::optional<RunRow> findRun(const QString& ref);

    QList<AttemptRecord> attempts(qint64 runId);
    // rank < 0: every rank. latestAttempt: where attempts repeat a step, keep
    // the newest attempt's value (what a resumed run really trained).
    MetricSeries series(qint64 runId, Metric metric, int rank = -1, bool latestAttempt = true);
    // Every step row, ordered by attempt, rank, step; false on a query error.
    bool forEachStepRow(qint64 runId, int rank, const std::function<void(const MetricRow&)>& visit);
    QList<RankSummary> rankSummaries(qint64 runId);
    // rank: -2 every rank, -1 the launcher's own lines; attempt < 0: all.
    QList<LogRecord> logs(qint64 runId, int rank = -2, int attempt = -1);
    // Detached runs: how far each file of the run directory was ingested.
    QHash<QString, qint64> ingestOffsets(qint64 runId);
    // Stored log lines per (attempt, rank).
    QHash<QPair<int, int>, int> logLineCounts(qint64 runId);
    // Stored event JSON bytes per (attempt, rank).
    QHash<QPair<int, int>, qint64> eventBytes(qint64 runId);
    QList<EventRecord> events(qint64 runId, const QString& type = {});
    // The newest time among the run's step metrics, events and logs; kNoTime if none.
    double lastHeardAt(qint64 runId);
    QList<CheckpointRecord> checkpoints(qint64 runId);
    // The run's system samples (system_samples.hpp), by rank, attempt and time; rank < 0: every rank.
    QList<SystemSample> systemSamples(qint64 runId, int rank = -1);
    QList<HostRecord> hosts();

private:
    explicit RunReader(QSqlDatabase db) : db_(std::move(db)) {}
    QList<RunRow> queryRuns(const QString& where, const QVariantList& args, int limit, bool withPlan);

    QSqlDatabase db_;
    QString lastError_;
};

} // namespace sb::store
