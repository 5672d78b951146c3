// Runs side by side: their loss and tokens/s overlaid, aligned by step or by
// the time since each run's first step; every rank's measured peak memory
// against the estimate for each run's own plan (a chart and a table); and the
// differences of their plans (units and policies, model, mesh, training).
#pragma once

#include <vector>

#include "history/compare_loader.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QTabWidget;
class QTableView;

namespace sb::gui {

class ComparedMemoryChart;
class ComparedMemoryModel;
class PlanDiffModel;
class SeriesChart;

class CompareView : public QWidget {
    Q_OBJECT
public:
    enum class Align { ByStep, ByTime, ByClock };

    explicit CompareView(QWidget* parent = nullptr);

    void setRuns(const QList<app::ComparedRun>& runs);
    const QList<app::ComparedRun>& runs() const { return runs_; }
    void setAlign(Align align);
    Align align() const { return align_; }

    SeriesChart* lossChart() const { return loss_; }
    QSlider* smoothingSlider() const { return smoothing_; }
    SeriesChart* rateChart() const { return rate_; }
    QTableView* diffTable() const { return diff_; }
    PlanDiffModel* diffModel() const { return diffModel_; }
    QComboBox* alignBox() const { return alignBox_; }
    // The charts' tabs: loss and throughput, then memory per rank.
    QTabWidget* tabs() const { return tabs_; }
    ComparedMemoryChart* memoryChart() const { return memoryChart_; }
    ComparedMemoryModel* memoryModel() const { return memoryModel_; }
    QTableView* memoryTable() const { return memoryTable_; }

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void retranslateUi();
    void showMemory();
    // The runs' values share the width that the Part and Item columns (at
    // most 2/5) leave, each at most as wide as its content, so that every
    // run stays in sight; a longer value wraps onto more lines of its row.
    void fitDiffColumns();
    static QString label(const app::ComparedRun& run);

    QList<app::ComparedRun> runs_;
    Align align_ = Align::ByStep;
    QComboBox* alignBox_;
    QLabel* alignLabel_;
    QLabel* smoothingLabel_;
    QSlider* smoothing_;
    // Per run: its smoothed line in loss_ and in rate_, its validation loss line in loss_.
    std::vector<int> lossIds_, rateIds_, evalIds_;
    QLabel* diffTitle_;
    SeriesChart* loss_;
    SeriesChart* rate_;
    PlanDiffModel* diffModel_;
    QTableView* diff_;
    QTabWidget* tabs_;
    ComparedMemoryChart* memoryChart_;
    ComparedMemoryModel* memoryModel_;
    QTableView* memoryTable_;
};

} // namespace sb::gui
