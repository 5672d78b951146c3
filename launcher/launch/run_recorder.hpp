// Records a supervised run as the supervisor reports it: the run row (plan,
// backend, hosts, world size, status, times, reason, failing rank),
// attempts and hosts (a Slurm run's nodes: in the run row only) here; steps
// (as a MetricsSink), events, checkpoints and logs through RunRows, the
// writer an attached run's ingest uses too, with the same caps. Past a
// rank's `headLines`, the last `tailLines` log lines are kept and stored at
// the attempt's end; marker lines say how much was not stored.
#pragma once

#include "metrics_sink.hpp"
#include "run_rows.hpp"
#include "run_supervisor.hpp"
#include "store/run_store.hpp"

#include <QHash>
#include <QObject>
#include <QPair>
#include <QStringList>

#include <deque>
#include <optional>

namespace sb::launch {

// The store's record of a new run of `launch`, launched from this process.
store::NewRun newRunRecord(const PreparedLaunch& launch);

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
    struct LogTail {
        qint64 dropped = 0;
        std::deque<store::LogRecord> lines;
    };
    void addLog(int attempt, int rank, store::LogStream stream, const QString& line);
    void launcherLog(const QString& line);
    void recordNode(const HostInfo& h);
    void flushTails();

    store::RunStore& store_;
    RunSupervisor& supervisor_;
    RecorderOptions options_;
    qint64 runId_ = -1;
    std::optional<RunRows> rows_;
    QString error_;
    int attempt_ = 0;
    QHash<QPair<int, int>, LogTail> tails_; // (attempt, rank): past the head cap
    int malformed_ = 0;
    QHash<int, QString> nodeNames_; // Slurm: host index -> node name
};

} // namespace sb::launch
