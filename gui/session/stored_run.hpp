// A run as the run store holds it, read in one go (off the GUI thread where
// it can be large) and then poured into the view-models the Run area draws
// live: rank 0's steps, every rank's memory peak next to the estimate of
// the recorded plan, the logs and the checkpoints. The Runs area's page of
// a past run and a followed detached run's backlog both start from it.
#pragma once

#include "checkpoints/checkpoint_catalog.hpp"
#include "store/run_reader.hpp"

#include <QList>
#include <QString>

namespace sb::gui {

class LiveRunModel;
class RunLogModel;

struct StoredRun {
    store::RunRow row;                        // with its plan
    QList<protocol::StepMetrics> rank0Steps;  // where attempts repeat a step, every attempt, oldest first
    QList<store::RankSummary> ranks;
    QList<store::LogRecord> logs;
    QList<app::CheckpointEntry> checkpoints;
    QList<store::SystemSample> system;        // every rank's system samples (CPU, host RSS, GPU)
    QString error;                            // why the run could not be read ("" when it was)
};

// What `read` names: the run's steps and memory, which ranks' logs
// (RunLogModel::kLauncher, a rank, or every one: kEveryLog), its checkpoints.
struct StoredRunParts {
    static constexpr int kEveryLog = -2;
    QList<int> logRanks{kEveryLog};
    bool checkpoints = true;
};

StoredRun readStoredRun(store::RunReader& reader, qint64 runId, const StoredRunParts& parts = {});
// Opens the store at `dbPath` for one read (the worker thread's own connection).
StoredRun readStoredRun(const QString& dbPath, qint64 runId, const StoredRunParts& parts = {});

// Resets `live` for the run and draws its steps, every rank's peak and its system samples.
void showStoredSteps(const StoredRun& run, LiveRunModel* live);
void appendStoredLogs(const QList<store::LogRecord>& logs, RunLogModel* model);

} // namespace sb::gui
