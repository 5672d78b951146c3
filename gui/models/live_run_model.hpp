// What a running training has reported, ready to chart: against the step,
// the loss (raw and smoothed), the validation loss where taken, tokens/s and the step time with its split
// into forward, backward, optimizer and exposed communication (rank 0's
// view: loss and throughput are global, every rank's split is alike); and
// per rank the latest and the peak memory next to the estimator's
// prediction for the same plan. A MetricsSink: the supervisor feeds it like
// the run store.
#pragma once

#include "ema_smoothing.hpp"
#include "system_series.hpp"
#include "history/series_table.hpp"

#include "launch/metrics_sink.hpp"

#include <QList>
#include <QObject>

#include <limits>
#include <vector>

namespace sb::gui {

class LiveRunModel : public QObject, public launch::MetricsSink {
    Q_OBJECT
public:
    enum Column {
        Loss,
        LossSmoothed,
        TokensPerS,
        StepMs,
        ForwardMs,
        BackwardMs,
        OptimizerMs,
        CommMs,
        // The split stacked: forward, + backward, + optimizer, + exposed communication.
        UpToBackward,
        UpToOptimizer,
        UpToComm,
        EvalLoss, // NaN on the steps that took none
        Time,     // unix seconds when the core printed the step
        ColumnCount
    };
    struct RankMemory {
        int rank = 0;
        qint64 current = -1;   // at the end of its latest step
        qint64 peak = -1;      // the highest step peak so far
        qint64 predicted = -1; // the estimator's peak for this rank
        int lastStep = 0;
    };

    explicit LiveRunModel(QObject* parent = nullptr);

    // A new run: `predictedPeaks` has one entry per rank (or is empty).
    void reset(int worldSize, int totalSteps, const std::vector<qint64>& predictedPeaks);

    const app::SeriesTable& table() const { return table_; }
    // The same rows against the seconds since the run's first step (the
    // charts' "by time" x axis, as the compare view offers).
    const app::SeriesTable& tableByTime() const { return byTime_; }
    const QList<RankMemory>& ranks() const { return ranks_; }
    // Every rank's system samples (CPU, host RSS, GPU): fed beside the steps, cleared by reset().
    SystemSeries* system() const { return system_; }
    // Unix seconds of the first step (tableByTime()'s x origin); NaN before it.
    double firstStepTime() const;
    int lastStep() const { return table_.isEmpty() ? 0 : static_cast<int>(table_.xs().back()); }
    int firstStep() const { return table_.isEmpty() ? 0 : static_cast<int>(table_.xs().front()); }
    int totalSteps() const { return totalSteps_; }
    double lastLoss() const;
    // The latest validation loss; NaN before the first.
    double lastEvalLoss() const { return lastEvalLoss_; }
    // Seconds left at the recent pace; NaN while unknown.
    double etaSeconds() const;
    // Smoothing weight in [0, 0.999]; recomputes the smoothed loss.
    double smoothing() const { return smoother_.weight(); }
    void setSmoothing(double weight);

    // MetricsSink.
    void log(const protocol::StepMetrics& step) override;
    void close() override {}

Q_SIGNALS:
    void modelReset();
    void stepAppended(int step);
    void ranksChanged();
    void smoothingChanged(double weight);

private:
    app::SeriesTable table_{ColumnCount};
    app::SeriesTable byTime_{ColumnCount};
    double t0_ = 0; // unix seconds of the first step
    EmaSmoother smoother_;
    QList<RankMemory> ranks_;
    SystemSeries* system_;
    int totalSteps_ = 0;
    double lastEvalLoss_ = std::numeric_limits<double>::quiet_NaN();
};

} // namespace sb::gui
