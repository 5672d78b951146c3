// A running (or just finished) training, live: its state, step, ETA; the loss
// (raw, faint, and smoothed as TensorBoard does, with the smoothing slider),
// tokens/s, memory per rank against the estimate, and the step time split
// into forward, backward, optimizer and exposed communication; below, the
// per-rank logs. It also measures how long a step takes from the core's
// print to the screen.
#pragma once

#include "retranslated.hpp"

#include "launch/failure_analysis.hpp"
#include "store/run_status.hpp"

#include <QList>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QSplitter;

namespace sb::gui {

class LiveRunModel;
class LogPanes;
class RankMemoryChart;
class RunLogModel;
class SeriesChart;
class SystemChart;

class LiveRunView : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit LiveRunView(QWidget* parent = nullptr);

    void setRun(LiveRunModel* live, RunLogModel* logs, int worldSize, qint64 runId, const QString& runName);
    void setStatus(store::RunStatus status, const launch::CodedReason& reason);
    // A word on how the run is reached (an attached run: "connection lost —
    // reconnecting"), shown after the progress; "" for none.
    void setNote(const QString& note);

    SeriesChart* lossChart() const { return loss_; }
    SeriesChart* rateChart() const { return rate_; }
    SeriesChart* timeChart() const { return time_; }
    RankMemoryChart* memoryChart() const { return memory_; }
    SystemChart* systemChart() const { return system_; } // in a tab beside the memory chart
    QList<SeriesChart*> seriesCharts() const { return {loss_, rate_, time_}; }
    // The charts' grid: hidden while the log is enlarged.
    QWidget* chartsArea() const { return charts_; }
    LogPanes* logs() const { return logs_; }
    QSlider* smoothingSlider() const { return smoothing_; }
    // The charts' x axis: 0 the step, 1 the seconds since the first step, 2 the wall-clock time.
    QComboBox* xAxisBox() const { return xAxis_; }
    QString statusText() const;
    // "Chart controls" beside the status, whose tooltip says how to read the
    // charts (hover, zoom, pan); a page short of room hides it.
    QLabel* hintLabel() const { return hint_; }
    LiveRunModel* model() const { return live_; }

    // From the core printing a step to the loss chart painting it, in ms.
    const QList<double>& screenLatenciesMs() const { return latencies_; }
    int lastPaintedStep() const { return lastPaintedStep_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addLines(); // the charts' lines, against the chosen x
    void updateClock(); // the wall-clock axis' origin, once the first step is known
    QString hoverDetails(double x, bool byTime) const;
    void retranslateUi() override;
    void updateStatus();
    void onLossPainted();

    LiveRunModel* live_ = nullptr;
    QLabel* state_;
    QLabel* progress_;
    QLabel* hint_;
    QSlider* smoothing_;
    QLabel* smoothingLabel_;
    QLabel* smoothingValue_;
    QComboBox* xAxis_;
    QLabel* xAxisLabel_;
    SeriesChart* loss_;
    SeriesChart* rate_;
    SeriesChart* time_;
    RankMemoryChart* memory_;
    SystemChart* system_;
    LogPanes* logs_;
    QWidget* charts_;
    QSplitter* splitter_;
    bool userSplit_ = false; // the user dragged the charts' and log's handle
    QTimer clock_;
    store::RunStatus status_ = store::RunStatus::Starting;
    launch::CodedReason reason_;
    QString note_;
    qint64 runId_ = -1;
    QString runName_;
    bool hasRun_ = false;
    QList<double> latencies_;
    int lastPaintedStep_ = 0;
};

} // namespace sb::gui
