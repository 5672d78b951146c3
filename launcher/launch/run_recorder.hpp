// Writes everything a supervised run produces into the run store: the run
// row (plan, backend, hosts, world size, status, times, reason, failing
// rank), attempts, per-rank step metrics (as a MetricsSink), events,
// checkpoints, hosts (a Slurm run's nodes: in the run row only) and log
// excerpts. Logs are capped per rank and attempt: the first `headLines` and
// the last `tailLines` are kept. Events too: at most `eventBytes` of event
// JSON per rank and attempt (hello, done and error events of up to
// `essentialEventBytes` always), then a marker line says how much was not stored.
#pragma once

#include "metrics_sink.hpp"
#include "run_supervisor.hpp"
#include "store/run_store.hpp"

#include <QHash>
#include <QObject>
#include <QPair>
#include <QStringList>

#include <deque>

namespace sb::launch {

// The store's record of a new run of `launch`, launched from this process.
store::NewRun newRunRecord(const PreparedLaunch& launch);

struct RecorderOptions {
    int headLines = 5000;   // per rank and attempt, stored as they come
    int tailLines = 500;    // then only the last ones, stored at the end
    int malformedLogged = 20;
    qint64 eventBytes = 4 * 1024 * 1024;   // per rank and attempt
    qint64 essentialEventBytes = 16 * 1024;
};

// hello, done and error events are kept whatever the budget, when small.
bool isEssentialEvent(const QString& type, qint64 bytes, const RecorderOptions& options);

class RunRecorder final : public QObject, public MetricsSink {
    Q_OBJECT
public:
    // Creates the run row at once; check ok() before starting the supervisor.
    RunRecorder(store::RunStore& store, RunSupervisor& supervisor, RecorderOptions options = {});
    ~RunRecorder() override;

    bool ok() const { return runId_ >= 0; }
    qint64 runId() const { return runId_; }
    QString error() const { return error_; }

    void log(const protocol::StepMetrics& step) override;
    void close() override;

private:
    struct LogCap {
        int stored = 0;
        qint64 dropped = 0;
        std::deque<store::LogRecord> tail;
    };
    struct EventCap {
        qint64 bytes = 0;
        qint64 droppedEvents = 0, droppedBytes = 0;
    };
    void addLog(int attempt, int rank, store::LogStream stream, const QString& line);
    void addEvent(int attempt, const protocol::CoreEvent& e);
    void launcherLog(const QString& line);
    void recordNode(const HostInfo& h);
    void flushTails();

    store::RunStore& store_;
    RunSupervisor& supervisor_;
    RecorderOptions options_;
    qint64 runId_ = -1;
    QString error_;
    int attempt_ = 0;
    QHash<QPair<int, int>, LogCap> caps_; // (attempt, rank)
    QHash<QPair<int, int>, EventCap> eventCaps_;
    int malformed_ = 0;
    QHash<int, QString> nodeNames_; // Slurm: host index -> node name
};

} // namespace sb::launch
