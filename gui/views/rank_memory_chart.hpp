// Memory of every rank of a running training: its current and its peak
// memory as bars, and the estimator's peak for the same plan as a dashed
// reference line, so estimate and measurement stand side by side.
#pragma once

#include "chart_view_base.hpp"

#include "models/live_run_model.hpp"

#include <QTimer>

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QLineSeries;
class QValueAxis;

namespace sb::gui {

class RankMemoryChart : public ChartViewBase {
    Q_OBJECT
public:
    static constexpr int kMaxRanks = 64; // more are summarised by the title

    explicit RankMemoryChart(QWidget* parent = nullptr);

    void setModel(const LiveRunModel* model);
    void scheduleRefresh();
    void refreshNow();
    // Measured peak over the estimate of the worst rank (NaN when unknown).
    double peakOverEstimate() const { return ratio_; }
    bool hasCsv() const override;
    QByteArray csv() const override;

protected:
    void retranslate() override;
    void resizeEvent(QResizeEvent* event) override; // the title's long or short form

private:
    void updateTitle();

    const LiveRunModel* model_ = nullptr;
    QBarSeries* bars_;
    QBarSet* current_;
    QBarSet* peak_;
    QLineSeries* estimate_;
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    QTimer refreshTimer_;
    double unit_ = 1024.0 * 1024.0;
    double ratio_ = 0;
    qint64 measuredPeak_ = -1;
    qint64 predictedPeak_ = -1;
};

} // namespace sb::gui
