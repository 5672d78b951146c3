// A chart view with the workbench's look (no animation, tight margins,
// legend below) that counts its paints, so a benchmark can tell when an edit
// has reached the screen.
#pragma once

#include <QChartView>

class QAbstractAxis;
class QAreaSeries;
class QLineSeries;
class QMenu;
class QValueAxis;

namespace sb::gui {

// Low enough that two rows of charts and the run's log fit under the launch
// settings on a 1366x768 screen; charts grow with the window from there.
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
// every one of its multiples.
void setRoundRange(QValueAxis* axis, double lo, double hi, bool whole = false);
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
    quint64 paintCount_ = 0;
    QString exportName_ = QStringLiteral("chart");
    QLineSeries* capacity_ = nullptr;
    QLineSeries* bandTop_ = nullptr;
    QAreaSeries* band_ = nullptr;
    QValueAxis* bandAxis_ = nullptr;
};

} // namespace sb::gui
