// Compare's memory chart: for every rank, each compared run's measured peak
// as a solid bar in the run's colour beside a light bar of the estimate for
// that run's own plan, so two engines' peaks and their estimates read side by
// side. A run that reported no memory shows its estimate alone and says so.
#pragma once

#include "chart_view_base.hpp"

#include "history/compare_loader.hpp"

#include <vector>

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QValueAxis;

namespace sb::gui {

class ComparedMemoryChart : public ChartViewBase {
    Q_OBJECT
public:
    static constexpr int kMaxRanks = 64; // more are left to the table

    explicit ComparedMemoryChart(QWidget* parent = nullptr);

    // `labels` and `colors` in the order of `runs`.
    void setRuns(const QList<app::ComparedRun>& runs, const QStringList& labels, const QList<QColor>& colors);
    // Run i's bars: its measured peaks (nullptr when it reported none) and its estimate (nullptr when its plan has none).
    QBarSet* measuredBars(int run) const { return measured_[static_cast<std::size_t>(run)]; }
    QBarSet* estimatedBars(int run) const { return estimated_[static_cast<std::size_t>(run)]; }
    // Bytes per unit of the value axis (MiB or GiB).
    double unit() const { return unit_; }
    bool hasCsv() const override;
    QByteArray csv() const override;

protected:
    void retranslate() override;

private:
    void showToolTip(bool shown, int rank, QBarSet* set);

    QList<app::ComparedRun> runs_;
    QStringList labels_;
    QBarSeries* bars_;
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    std::vector<QBarSet*> measured_, estimated_;
    double unit_ = 1024.0 * 1024.0;
};

} // namespace sb::gui
