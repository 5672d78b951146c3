// What `shardbench-cli run` shows while a run goes: launcher messages, a
// live progress line (step/total, loss, tokens/s, memory per rank) redrawn
// in place on a terminal or printed every tenth of the run otherwise, error
// events, rank logs with --verbose, and the final summary.
#pragma once

#include "launch/metrics_sink.hpp"
#include "launch/run_supervisor.hpp"

#include <QElapsedTimer>
#include <QMap>
#include <QObject>
#include <QTextStream>

namespace sb::cli {

class RunConsole final : public QObject, public launch::MetricsSink {
    Q_OBJECT
public:
    struct Options {
        bool verbose = false;   // echo every rank's log lines
        bool quiet = false;     // no progress line
        bool terminal = false;  // stderr is a tty: redraw in place
    };
    RunConsole(launch::RunSupervisor& supervisor, QTextStream& err, Options options);
    ~RunConsole() override { supervisor_.removeMetricsSink(this); }

    void log(const protocol::StepMetrics& step) override;
    void close() override;

    // The summary, on `out`.
    void printSummary(QTextStream& out, qint64 runId, const QString& dbPath) const;

private:
    void message(const QString& text);
    void drawProgress(bool force);
    QString progressText() const;

    launch::RunSupervisor& supervisor_;
    QTextStream& err_;
    Options options_;
    bool lineShown_ = false;
    QElapsedTimer sinceDraw_;
    QElapsedTimer sinceStart_;
    int lastPrintedStep_ = 0;
    // Statistics for the summary.
    QMap<int, qint64> peakByRank_;
    double tokensPerSSum_ = 0, stepMsSum_ = 0;
    int rank0Steps_ = 0;
};

} // namespace sb::cli
