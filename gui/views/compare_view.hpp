// Runs side by side: their loss and tokens/s overlaid, aligned by step or by
// the time since each run's first step, and the differences of their plans
// (units and policies, model, mesh, training).
#pragma once

#include <vector>

#include "history/compare_loader.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QTableView;

namespace sb::gui {

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

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void retranslateUi();
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
};

} // namespace sb::gui
