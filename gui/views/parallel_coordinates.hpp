// Runs as lines across parallel axes (W&B's and TensorBoard HParams' view):
// one vertical axis per plan field and per outcome (final loss, eval loss,
// tokens/s, peak memory), one polyline per run coloured by its final loss
// (blue the best, red the worst, grey none). Click a line to pick its run
// (Ctrl adds it); drag along an axis to brush a range: the runs inside every
// brushed range are picked. The view does not own the selection: it says
// what was picked (runsPicked) and draws the runs it is told are selected.
#pragma once

#include "models/parallel_axes.hpp"

#include <QHash>
#include <QSet>
#include <QWidget>

#include <optional>

class QAbstractItemModel;

namespace sb::gui {

class ParallelCoordinates : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMargin = 12;
    static constexpr int kRightLabels = 90; // room for the last axis's value labels

    explicit ParallelCoordinates(QWidget* parent = nullptr);

    // The table's (filtered) model; `columns` become axes, `shadeColumn` colours the lines.
    void setModel(QAbstractItemModel* model, const QList<int>& columns, int shadeColumn);
    void setSelectedRuns(const QSet<qint64>& runs);
    const QSet<qint64>& selectedRuns() const { return selected_; }
    const ParallelData& data() const { return data_; }

    // Where things are drawn (for tests): an axis's x, a run's point on an
    // axis (nullopt: no value there), the plot's top and bottom.
    int axisX(int axis) const;
    std::optional<QPoint> pointOf(qint64 run, int axis) const;
    int plotTop() const;
    int plotBottom() const;
    // The axis titles' height, every title wrapped to the space between axes.
    int titleHeight() const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

Q_SIGNALS:
    // A click on a line (extend: Ctrl held), a click on nothing (empty), or a brush.
    void runsPicked(const QList<qint64>& runs, bool extend);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void reload();
    int axisAt(const QPoint& at) const;
    qint64 lineAt(const QPoint& at) const;
    double positionAtY(int y) const;
    int yOf(double position) const;
    int axisSpacing() const;
    int widestWord() const;
    QList<qint64> brushedRuns() const;
    void paintAxes(QPainter& p) const;
    void paintLines(QPainter& p) const;
    void paintBrushes(QPainter& p) const;

    QAbstractItemModel* model_ = nullptr;
    QList<int> columns_;
    int shadeColumn_ = -1;
    ParallelData data_;
    QSet<qint64> selected_;
    QHash<int, QPair<double, double>> brushes_; // axis column -> position range
    int dragAxis_ = -1;
    QPoint pressAt_;
    QPoint dragTo_;
};

} // namespace sb::gui
