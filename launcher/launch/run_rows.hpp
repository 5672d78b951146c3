// The one writer of a run's rows in the store, fed by both ways a run is
// watched: the supervised path (RunRecorder, from the supervisor's signals)
// and the attached path (RunIngestor, from the run directory's lines). The
// caps are the same for both (RecorderOptions): at most `eventBytes` of event
// JSON per rank and attempt (hello, done and error events of up to
// `essentialEventBytes` always), at most `headLines` log lines per rank and
// attempt as they come. A checkpoint event's checkpoint row is stored whatever
// the event budget says: a restore must find every checkpoint.
#pragma once

#include "events/core_event.hpp"
#include "store/run_store.hpp"

#include <QByteArray>
#include <QHash>
#include <QPair>
#include <QString>

#include <functional>

namespace sb::launch {

struct RecorderOptions {
    int headLines = 5000;   // per rank and attempt, stored as they come
    int tailLines = 500;    // supervised: then only the last ones, stored at the end
    int malformedLogged = 20;
    qint64 eventBytes = 4 * 1024 * 1024;   // per rank and attempt
    qint64 essentialEventBytes = 16 * 1024;
};

// hello, done and error events are kept whatever the budget, when small.
bool isEssentialEvent(const QString& type, qint64 bytes, const RecorderOptions& options);

// The store's row of a checkpoint event of `rank` in `attempt`.
store::CheckpointRecord checkpointRecord(qint64 runId, int attempt, int rank, double t, const protocol::CheckpointEvent& c);

// The store's row of a `system` event of `rank` in `attempt`.
store::SystemSample systemSampleRecord(qint64 runId, int attempt, const protocol::CoreEvent& e, const protocol::System& s);

class RunRows {
public:
    using Key = QPair<int, int>; // (attempt, rank)
    // `stored...`: what the store already holds per (attempt, rank), for the caps.
    RunRows(store::RunStore& store, qint64 runId, RecorderOptions caps = {}, QHash<Key, int> storedLogLines = {},
            QHash<Key, qint64> storedEventBytes = {});

    qint64 runId() const { return runId_; }
    const RecorderOptions& caps() const { return caps_; }
    // Where a rank runs and how many there are, for checkpoint rows.
    void setPlace(std::function<QString(int rank)> hostOfRank, int worldSize);
    void setWorldSize(int worldSize) { worldSize_ = worldSize; }

    // An event other than a step, `json` its object as the rank wrote it,
    // `src` the run-directory line it came from ("" when supervised). A
    // `system` event becomes a row of system_samples, outside the event budget.
    void event(int attempt, const protocol::CoreEvent& e, const QByteArray& json, const QString& src = {});
    // A rank's log line (rank >= 0): false when over its head cap, not stored.
    bool rankLog(store::LogRecord r);
    // A line of the launcher's (or the supervisor's) own log, in a rank's
    // log when `rank` >= 0 (what was not stored of it); t 0: now.
    void launcherLine(int attempt, const QString& line, const QString& src = {}, double t = 0, int rank = -1);
    void step(const protocol::StepMetrics& m);
    void steps(std::vector<store::MetricRow> rows);

    // Events over the budget since the last call, per (attempt, rank).
    struct Dropped {
        qint64 events = 0, bytes = 0;
    };
    QHash<Key, Dropped> takeDroppedEvents();

private:
    store::RunStore& store_;
    qint64 runId_;
    RecorderOptions caps_;
    QHash<Key, int> logLines_;
    QHash<Key, qint64> eventBytes_;
    QHash<Key, Dropped> dropped_;
    std::function<QString(int)> hostOfRank_;
    int worldSize_ = 0;
};

} // namespace sb::launch
