// A chart of SeriesTable columns against their x that stays fast at millions
// of points: each refresh decimates every line to the plot's pixel width
// (first, lowest, highest and last point per pixel), so redrawing costs the
// same at a thousand points as at a million and no spike is lost. Refreshes
// are coalesced; the x range follows the data until the wheel or a box
// (left-drag) zooms it or a Shift- or middle-drag pans it (double-click, or
// Reset zoom in the context menu, follows again). Hovering shows a crosshair
// and every line's value at the nearest point; a loss chart can switch its
// value axis to a log scale. With a clock origin, x is seconds since it and
// the x axis reads as wall-clock time (clock_ticks.hpp).
#pragma once

#include "chart_view_base.hpp"

#include "history/series_table.hpp"
#include "models/ema_smoothing.hpp"

#include <QPen>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

class QAreaSeries;
class QCategoryAxis;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QRubberBand;
class QValueAxis;

namespace sb::gui {

class SeriesChart : public ChartViewBase {
    Q_OBJECT
public:
    explicit SeriesChart(QWidget* parent = nullptr);

    // A line of `column` of `table` (not owned; must outlive the line or be replaced).
    int addLine(const app::SeriesTable* table, int column, const QPen& pen);
    // The line of `column` of `table` smoothed as TensorBoard smooths (EMA with
    // debiasing, setSmoothing()), computed as rows arrive.
    int addSmoothedLine(const app::SeriesTable* table, int column, const QPen& pen);
    // The weight of every smoothed line, in [0, 1): 0 draws the values as they are.
    void setSmoothing(double weight);
    double smoothing() const { return smoothing_; }
    // Leaves a line out of the legend (the faint raw line beside its smoothed one).
    void setSeriesInLegend(int id, bool shown);
    // A filled band from column `lower` (-1: zero) up to column `upper`.
    int addBand(const app::SeriesTable* table, int upper, int lower, const QColor& color);
    void setSeriesName(int id, const QString& name);
    void setSeriesVisible(int id, bool visible);
    // Draws a line's points as dots too (a sparse column, such as the validation loss).
    void setPointsShown(int id, bool shown);
    void removeAll();
    int seriesCount() const { return static_cast<int>(series_.size()); }
    void setAxisTitles(const QString& x, const QString& y);
    // Whether the x axis' title is drawn (it names the hovered x either way).
    void setXTitleShown(bool shown);
    void setTitle(const QString& title);
    void setYFromZero(bool fromZero) { yFromZero_ = fromZero; }
    // x as seconds since `unixSeconds`, shown as the time of day (NaN: x as a number); the same origin again does nothing.
    void setClockOrigin(double unixSeconds);
    double clockOrigin() const { return clockOrigin_; }
    bool showsClock() const;
    // The x axis' tick labels as shown (clock or numbers; tests).
    QStringList xTickLabels() const;
    // Without data the axes show no ticks (no made-up 0 0 0 1 1 1) but "No data yet" in the plot.
    bool isEmptyShown() const;

    // Redraws soon (at most every 30 ms), or now.
    void scheduleRefresh();
    void refreshNow();
    bool isRefreshPending() const { return refreshTimer_.isActive(); }
    bool isFollowing() const { return follow_; }
    void setXRange(double x0, double x1); // stops following
    void follow();
    double xMin() const;
    double xMax() const;
    // Points handed to the chart for series `id` at the last refresh.
    int drawnPoints(int id) const;
    // The largest x of any line at the last refresh (NaN when empty).
    double drawnXMax() const { return drawnXMax_; }
    // Milliseconds the last refresh took to decimate and hand over the points.
    double lastRefreshMs() const { return lastRefreshMs_; }

    // What hovering at `pos` (view coordinates) shows: the x, then each visible
    // line's name and value at its nearest point; "" outside the plot.
    QString hoverTextAt(const QPointF& pos) const;
    QString hoverText() const { return hoverText_; }
    // The context menu offers a log scale for the value axis (for positive series: loss).
    void setLogScaleAllowed(bool allowed) { logAllowed_ = allowed; }
    void setLogScale(bool on);
    bool isLogScale() const { return log_; }

    // More about the hovered x, shown after it ("21:35:02, 2 min 05 s in"); "" for nothing.
    void setHoverXDetails(std::function<QString(double x)> details) { hoverDetails_ = std::move(details); }
    void setCsvProvider(std::function<QByteArray()> provider) { csv_ = std::move(provider); }
    bool hasCsv() const override;
    QByteArray csv() const override;

Q_SIGNALS:
    void languageChanged();
    void refreshed();
    void painted();

protected:
    void retranslate() override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void addViewActions(QMenu& menu) override;

private:
    struct Series {
        const app::SeriesTable* table = nullptr;
        int upper = 0;
        int lower = -1;          // bands only
        QLineSeries* line = nullptr;
        QLineSeries* base = nullptr; // bands only
        QAreaSeries* band = nullptr;
        int drawn = 0;
        bool visible = true;
        // Smoothed lines: `table` is `smoothed`, the EMA of column `sourceColumn` of `source`.
        const app::SeriesTable* source = nullptr;
        int sourceColumn = 0;
        std::shared_ptr<app::SeriesTable> smoothed;
        EmaSmoother smoother;
        std::uint64_t seenGeneration = 0;
    };
    void updateSmoothed(Series& s) const;
    void attach(QAbstractSeries* s);
    bool dataRange(double* x0, double* x1) const;
    QAbstractAxis* valueAxis() const;
    QValueAxis* shownXAxis() const; // the numeric axis, or the clock axis
    void setXRange(QValueAxis* axis, double x0, double x1);
    void showEmpty(bool empty);
    void placeEmptyText();
    void hover(const QPointF& pos);
    void clearHover();
    // Sets the view to [x0, x1] moved inside the data, at least a few x wide.
    void showRange(double x0, double x1);

    std::vector<Series> series_;
    QValueAxis* xAxis_;
    QCategoryAxis* clockAxis_;
    double clockOrigin_;
    QValueAxis* yAxis_;
    QTimer refreshTimer_;
    std::function<QByteArray()> csv_;
    std::function<QString(double)> hoverDetails_;
    double viewX0_ = 0, viewX1_ = 1;
    double drawnXMax_ = 0;
    double lastRefreshMs_ = 0;
    bool follow_ = true;
    bool yFromZero_ = false;
    double smoothing_ = 0.6;
    // Interaction: the crosshair, the zoom box, a drag in progress.
    enum class Drag { None, Zoom, Pan };
    Drag drag_ = Drag::None;
    QPointF pressAt_;
    double panFrom0_ = 0, panFrom1_ = 0;
    QGraphicsLineItem* crosshair_ = nullptr;
    QGraphicsSimpleTextItem* emptyText_ = nullptr;
    QRubberBand* rubber_ = nullptr;
    QString hoverText_;
    QLogValueAxis* logAxis_ = nullptr;
    bool logAllowed_ = false;
    bool log_ = false;
};

} // namespace sb::gui
