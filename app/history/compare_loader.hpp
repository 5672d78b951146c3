// The runs chosen for comparison, read from the store in a worker thread:
// rank 0's loss and tokens/s against the step, against the seconds since
// each run's first step, and against the wall clock (seconds since the
// earliest first step of the runs read together; where a resumed attempt
// repeats steps, the newest attempt counts), each run's plan for the diff,
// and every rank's measured peak memory beside the estimate for that plan.
#pragma once

#include "history/rank_peaks.hpp"
#include "history/series_table.hpp"

#include <QFutureWatcher>
#include <QList>
#include <QObject>

#include <memory>

namespace sb::app {

struct ComparedRun {
    enum Column { Loss, TokensPerS, EvalLoss, ColumnCount }; // EvalLoss: NaN on steps that took none
    qint64 id = -1;
    QString name;
    QString status;
    QString planJson;
    std::shared_ptr<SeriesTable> byStep;
    std::shared_ptr<SeriesTable> byTime;
    std::shared_ptr<SeriesTable> byClock; // x: seconds since clockOrigin
    double clockOrigin = 0;               // unix seconds: the earliest first step of the runs read together
    QList<RankPeak> ranks;                // one per rank of the run
};

class CompareLoader : public QObject {
    Q_OBJECT
public:
    explicit CompareLoader(QObject* parent = nullptr);
    ~CompareLoader() override;

    void load(const QString& storePath, const QList<qint64>& runIds);
    bool isLoading() const { return watcher_.isRunning(); }
    const QList<ComparedRun>& runs() const { return runs_; }
    static QList<ComparedRun> read(const QString& storePath, const QList<qint64>& runIds);

Q_SIGNALS:
    void loaded();

private:
    QFutureWatcher<QList<ComparedRun>> watcher_;
    QList<ComparedRun> runs_;
    QList<qint64> pending_;
    QString pendingPath_;
    bool reloadWhenDone_ = false;
};

} // namespace sb::app
