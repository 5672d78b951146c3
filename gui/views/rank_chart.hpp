// Peak memory of each rank, stacked by category, against the device
// capacity. Identical ranks share one bar; past kMaxBars groups the ones with
// the highest peaks are shown.
#pragma once

#include "chart_view_base.hpp"

#include "models/rank_groups.hpp"

#include <QStringList>

#include <array>
#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace sb::gui {

class RankChart : public ChartViewBase {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 32;

    explicit RankChart(QWidget* parent = nullptr);

    void setEstimate(const Estimate& estimate, const std::vector<RankGroup>& groups);
    void clear();
    QStringList barLabels() const { return labels_; }
    bool overCapacity() const { return over_; }
    // Whether the capacity line is on the chart (the peak is at least half of it).
    bool capacityShown() const { return capacityBytes_ > 0 && 2 * worstPeak_ >= capacityBytes_; }
    double axisTopGiB() const;

protected:
    void retranslate() override;

private:
    void updateTitle();
    void showTooltip(bool status, int index, QBarSet* set);

    QStackedBarSeries* series_;
    std::array<QBarSet*, kMemCategories> sets_{};
    QLineSeries* capacity_;
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    QStringList labels_;
    std::vector<RankGroup> shown_;
    std::vector<MemBreakdown> shownBytes_;
    std::vector<std::uint64_t> shownHost_;
    std::uint64_t capacityBytes_ = 0;
    std::uint64_t worstPeak_ = 0;
    int ranks_ = 0;
    int groupCount_ = 0;
    bool over_ = false;
    bool empty_ = true;
};

} // namespace sb::gui
