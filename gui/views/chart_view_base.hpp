// A chart view with the workbench's look (no animation, tight margins,
// legend below) that counts its paints, so a benchmark can tell when an edit
// has reached the screen.
#pragma once

#include <QChartView>

class QAbstractAxis;
class QAreaSeries;
class QLineSeries;
class QValueAxis;

namespace sb::gui {

// Low enough that two rows of charts and the run's log fit under the launch
// settings on a 1366x768 screen; charts grow with the window from there.
inline constexpr int kMinimumChartHeight = 140;

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
