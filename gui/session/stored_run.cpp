#include "stored_run.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"

#include "history/rank_peaks.hpp"
#include "history/store_access.hpp"

namespace sb::gui {

StoredRun readStoredRun(store::RunReader& reader, qint64 runId, const StoredRunParts& parts)
{
    StoredRun out;
    std::optional<store::RunRow> row = reader.run(runId);
    if (!row) {
        out.error = reader.lastError().isEmpty() ? QStringLiteral("there is no run %1 in the store").arg(runId) : reader.lastError();
        return out;
    }
    out.row = std::move(*row);
    reader.forEachStepRow(runId, 0, [&out](const store::MetricRow& r) { out.rank0Steps << r.m; });
    out.ranks = reader.rankSummaries(runId);
    out.system = reader.systemSamples(runId);
    for (int rank : parts.logRanks) out.logs += reader.logs(runId, rank);
    if (parts.checkpoints) out.checkpoints = app::listRunCheckpoints(reader, out.row);
    return out;
}

StoredRun readStoredRun(const QString& dbPath, qint64 runId, const StoredRunParts& parts)
{
    const Result<std::unique_ptr<store::RunReader>> reader = app::StoreAccess::openReader(dbPath);
    if (!reader || !reader.value()) {
        StoredRun out;
        out.error = reader ? QStringLiteral("there is no run store at %1").arg(dbPath) : qtMessage(reader);
        return out;
    }
    return readStoredRun(*reader.value(), runId, parts);
}

void showStoredSteps(const StoredRun& run, LiveRunModel* live)
{
    int steps = 0;
    const std::vector<qint64> predicted = app::estimatedPeaks(run.row.planJson, &steps);
    live->reset(run.row.worldSize, steps, predicted);
    for (const protocol::StepMetrics& m : run.rank0Steps) live->log(m);
    // The other ranks' memory from their summaries (their rows can be many).
    for (const store::RankSummary& r : run.ranks) {
        if (r.rank == 0) continue;
        protocol::StepMetrics m;
        m.rank = r.rank;
        m.step = r.lastStep;
        m.memPeak = r.peakMem;
        live->log(m);
    }
    live->system()->addAll(run.system);
}

void appendStoredLogs(const QList<store::LogRecord>& logs, RunLogModel* model)
{
    for (const store::LogRecord& l : logs)
        model->append(l.rank, l.rank < 0                              ? RunLogModel::Launcher
                              : l.stream == store::LogStream::Stdout ? RunLogModel::Stdout
                                                                     : RunLogModel::Stderr,
                      l.attempt, l.line);
}

} // namespace sb::gui
