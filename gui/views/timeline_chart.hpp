// Memory of the worst rank through one training step, unit by unit: forward,
// loss, backward, optimizer; stacked by category, against the capacity.
#pragma once

#include "chart_view_base.hpp"

#include "estimate/estimate.hpp"

#include <array>
#include <vector>

class QAreaSeries;
class QCategoryAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace sb::gui {

class TimelineChart : public ChartViewBase {
    Q_OBJECT
public:
    explicit TimelineChart(QWidget* parent = nullptr);

    void setEstimate(const Estimate& estimate);
    void clear();
    int pointCount() const { return static_cast<int>(points_.size()); }
    // The translated label of a timeline point: "pre-forward layers.3".
    static QString pointLabel(const TimelinePoint& p);

protected:
    void retranslate() override;

private:
    void updateAxes();
    void showTooltip(const QPointF& point, bool state);

    std::array<QAreaSeries*, kMemCategories> areas_{};
    std::array<QLineSeries*, kMemCategories> uppers_{};
    QLineSeries* capacity_;
    QScatterSeries* peak_;
    QCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    std::vector<TimelinePoint> points_;
    std::uint64_t capacityBytes_ = 0;
    int lossIndex_ = 0;
    int peakIndex_ = 0;
    int worstRank_ = 0;
    bool over_ = false;
};

} // namespace sb::gui
