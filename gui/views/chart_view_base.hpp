// A chart view with the workbench's look (no animation, tight margins,
// legend below) that counts its paints, so a benchmark can tell when an edit
// has reached the screen. It asks for room for a readable plot and fits its
// axes to the plot's size, so no tick label or axis title is cut short.
#pragma once

#include <QChartView>

#include <functional>

class QAbstractAxis;
class QAreaSeries;
class QLineSeries;
class QMenu;
class QValueAxis;

namespace sb::gui {

// The smallest plot a chart is readable in (issue 39): a chart asks its
// layout for this much plot area plus what its title, axes and legend take.
inline constexpr int kMinimumPlotWidth = 300;
inline constexpr int kMinimumPlotHeight = 160;
// A floor for what surrounds a chart (older callers). A chart's own minimum
// is the plot above plus its chrome: QChartView resets any minimum set on it
// to its chart's at every resize, and ChartViewBase sets that one.
inline constexpr int kMinimumChartHeight = 140;

// The tick step of an axis spanning `span`: 1, 2 or 5 times a power of ten,
// the smallest that needs at most `most` steps (span 250 -> 50, 0.37 -> 0.1).
double roundTickStep(double span, int most = 6);
// The decimals that tell ticks `step` apart: 0 for whole steps, 1 for 0.2,
// 2 for 0.05 (at most 9).
int tickDecimals(double step);
// Sets the range of `axis` with ticks at multiples of roundTickStep() (0, 50,
// 100, ... rather than 1, 63.5, 126), whatever the range's ends, and labels
// with the decimals the step needs (a plan of 0.6 GiB reads 0.0, 0.2, 0.4,
// never 0, 0, 0, 1). A `whole` axis (steps) ticks at whole numbers only: an
// empty chart's 0..1 reads 0, 1, never 0, 0, 0, 1, 1, 1. The step is set
// first: a wide range with a narrow range's step would lay out a tick for
// every one of its multiples. At most 6 ticks, fewer when the axis of a
// ChartViewBase is too short for their labels to read whole (QtCharts would
// cut them to "…"); the view sets the range again when its plot changes size.
void setRoundRange(QValueAxis* axis, double lo, double hi, bool whole = false);
// The tick step setRoundRange() picks for [lo, hi] on an axis `pixels` long
// (0: not laid out, up to 6 ticks) whose labels are `labelExtent` px along it
// at most (a vertical axis: their height), given the step's labels.
double fittedTickStep(double lo, double hi, bool whole, double pixels, const std::function<double(double step)>& labelExtent);
// Bytes per unit of a memory axis whose largest value is `top` bytes: MiB for
// small runs (CPU tests), GiB for real ones.
double memoryAxisUnit(qint64 top);
inline bool isGiB(double unit) { return unit > 1024.0 * 1024; }

class ChartViewBase : public QChartView {
    Q_OBJECT
public:
    enum class ExportFormat { Png, Svg, Csv };

    explicit ChartViewBase(QWidget* parent = nullptr);
    quint64 paintCount() const { return paintCount_; }
    // Room for a plot of kMinimumPlotWidth x kMinimumPlotHeight with the chart's title, axes and legend.
    QSize minimumSizeHint() const override;
    // The chart's data as CSV (a header line, then rows), when it has data to offer.
    virtual bool hasCsv() const { return false; }
    virtual QByteArray csv() const { return {}; }
    // A file name stem for exports ("loss").
    QString exportName() const { return exportName_; }
    void setExportName(const QString& name) { exportName_ = name; }

Q_SIGNALS:
    // The context menu asked for an export; the window picks the file.
    void exportRequested(sb::gui::ChartViewBase::ExportFormat format);

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    virtual void retranslate() = 0;
    // The chart's own entries of its context menu (zoom, scale), above the exports.
    virtual void addViewActions(QMenu& menu) { (void)menu; }
    // A light red band from the capacity line up to the top of the axis: the
    // part of a bar or area inside it is memory the device does not have.
    void addOverCapacityBand(QLineSeries* capacity, QAbstractAxis* x, QValueAxis* y);
    // Follows the capacity line and the axis top; stronger when over capacity.
    void updateOverCapacityBand(bool over);

private:
    // Fits every axis to the plot's new size: fewer ticks on a short axis,
    // bar labels turned upright when they do not fit side by side.
    void fitAxes();
    void updateMinimumSize();
    quint64 paintCount_ = 0;
    QSize chrome_; // the chart's size less its plot area, at the last layout
    QString exportName_ = QStringLiteral("chart");
    QLineSeries* capacity_ = nullptr;
    QLineSeries* bandTop_ = nullptr;
    QAreaSeries* band_ = nullptr;
    QValueAxis* bandAxis_ = nullptr;
};

} // namespace sb::gui
