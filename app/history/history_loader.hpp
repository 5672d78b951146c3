// The run history for the Runs area, in two steps so that a store with
// thousands of runs opens at once: the run rows come from one query in the
// GUI thread; what needs more reading per run (the plan's summary and fields,
// mean tokens/s, peak memory per rank, the last validation loss) follows from
// a worker thread with its own reader, in chunks, newest runs first.
#pragma once

#include "plan/plan.hpp"
#include "store/run_reader.hpp"

#include <QFutureWatcher>
#include <QHash>
#include <QSet>
#include <QList>
#include <QObject>

#include <atomic>
#include <memory>

namespace sb::app {

// A unit policy as one value for the whole plan: every unit's, or mixed.
template <typename T>
struct UnitsValue {
    T value{};
    bool mixed = false; // the units disagree
};

// The plan fields the Runs table shows as columns (read from the stored plan).
struct RunPlanFields {
    bool read = false; // false: the recorded plan does not read
    UnitsValue<Reshard> reshard;
    UnitsValue<std::optional<DType>> paramDtype, reduceDtype; // nullopt: the parameter's own
    UnitsValue<bool> offload;
    int microBatch = 0;
    qint64 globalBatchTokens = 0; // micro-batch x sequence x accumulation x world size
    double lr = 0;
};

struct RunDetails {
    QString preset;
    int units = 0;
    int nodes = 0, procsPerNode = 0, replicate = 1;
    double tokensPerS = std::numeric_limits<double>::quiet_NaN(); // rank 0's mean
    QList<qint64> peakPerRank; // index: rank
    qint64 peakMax = -1;
    int peakRank = -1;
    double evalLoss = std::numeric_limits<double>::quiet_NaN(); // rank 0's last validation loss
    RunPlanFields fields;
    bool finalStatus = false; // read after the run ended: it will not change
};

RunPlanFields planFields(const Plan& plan);

class HistoryLoader : public QObject {
    Q_OBJECT
public:
    explicit HistoryLoader(QObject* parent = nullptr);
    ~HistoryLoader() override; // stops the worker

    // Reads the runs now (and emits runsLoaded before returning), then starts
    // reading the details of every run not in `known`.
    bool load(const QString& storePath, const QSet<qint64>& known = {});
    const QList<store::RunRow>& runs() const { return runs_; }
    QString error() const { return error_; }
    bool detailsPending() const { return watcher_.isRunning(); }
    void waitForDetails();

    static RunDetails readDetails(store::RunReader& reader, qint64 runId);

Q_SIGNALS:
    void runsLoaded();
    void detailsReady(const QHash<qint64, sb::app::RunDetails>& details);
    void detailsFinished();

private:
    QList<store::RunRow> runs_;
    QString error_;
    QFutureWatcher<void> watcher_;
    std::shared_ptr<std::atomic<bool>> stop_;
    int generation_ = 0;
};

} // namespace sb::app

Q_DECLARE_METATYPE(sb::app::RunDetails)
