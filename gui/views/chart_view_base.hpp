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

class ChartViewBase : public QChartView {
    Q_OBJECT
public:
    explicit ChartViewBase(QWidget* parent = nullptr);
    quint64 paintCount() const { return paintCount_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    virtual void retranslate() = 0;
    // A light red band from the capacity line up to the top of the axis: the
    // part of a bar or area inside it is memory the device does not have.
    void addOverCapacityBand(QLineSeries* capacity, QAbstractAxis* x, QValueAxis* y);
    // Follows the capacity line and the axis top; stronger when over capacity.
    void updateOverCapacityBand(bool over);

private:
    quint64 paintCount_ = 0;
    QLineSeries* capacity_ = nullptr;
    QLineSeries* bandTop_ = nullptr;
    QAreaSeries* band_ = nullptr;
    QValueAxis* bandAxis_ = nullptr;
};

} // namespace sb::gui
