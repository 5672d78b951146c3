// Columns of numbers against one x (a step or seconds), for charts that stay
// fast at millions of points: decimated() returns, per pixel column, the
// first, lowest, highest and last point that falls into it (the M4
// aggregation), so the drawn line is the same as the full one and every
// spike stays visible. Appending is amortised O(1); decimating is
// O(pixels x log n), independent of how many points lie in between.
#pragma once

#include "history/min_max_pyramid.hpp"

#include <QList>
#include <QPointF>

#include <cstdint>
#include <vector>

namespace sb::app {

class SeriesTable {
public:
    explicit SeriesTable(int columns = 1);

    int columnCount() const { return static_cast<int>(columns_.size()); }
    qsizetype size() const { return static_cast<qsizetype>(x_.size()); }
    bool isEmpty() const { return x_.empty(); }
    void reserve(qsizetype rows);
    void clear();
    // Keeps the first `rows` rows (a restarted attempt repeating steps).
    void truncate(qsizetype rows);

    // One row: x (not smaller than the previous x) and a value per column (NaN: none).
    void append(double x, const double* values);
    void append(double x, std::initializer_list<double> values) { append(x, values.begin()); }

    double x(qsizetype row) const { return x_[static_cast<std::size_t>(row)]; }
    double value(int column, qsizetype row) const { return columns_[static_cast<std::size_t>(column)][static_cast<std::size_t>(row)]; }
    const std::vector<double>& xs() const { return x_; }
    const std::vector<double>& column(int c) const { return columns_[static_cast<std::size_t>(c)]; }
    // Replaces a whole column (a recomputed smoothing) and re-indexes it.
    void setColumn(int c, std::vector<double> values);

    // The points of column c to draw for x in [x0, x1] across `pixels` pixel
    // columns; the points just outside the range are included so that the
    // line enters and leaves the plot. NaN values are left out.
    QList<QPointF> decimated(int c, double x0, double x1, int pixels) const;
    // For filled bands: one point per pixel column, the mean of the points in
    // it (a smooth edge that fills cheaply; spikes belong on an M4 line drawn
    // with the band). Needs keepMeans(c); otherwise the same as decimated().
    QList<QPointF> averaged(int c, double x0, double x1, int pixels) const;
    // Keeps running sums of column c, so that averaged() costs O(pixels x log n).
    void keepMeans(int c);
    bool keepsMeans(int c) const { return !sums_[static_cast<std::size_t>(c)].empty(); }

    // Lowest and highest value of column c for x in [x0, x1]; false when none.
    bool valueRange(int c, double x0, double x1, double* low, double* high) const;

    // Counts every change other than an append (clear, truncate, setColumn):
    // what a reader derived from the rows it has seen is stale when it moved.
    std::uint64_t generation() const { return generation_; }

    // Rows whose x lies in [x0, x1]: [first, last).
    std::pair<std::size_t, std::size_t> rowsBetween(double x0, double x1) const;

private:
    std::uint64_t generation_ = 0;
    std::vector<double> x_;
    std::vector<std::vector<double>> columns_;
    std::vector<MinMaxPyramid> index_;
    // Per column with means kept: sums_[c][i] and counts_[c][i] of the non-NaN
    // values among the first i rows (size rows + 1); empty otherwise.
    std::vector<std::vector<double>> sums_;
    std::vector<std::vector<std::uint32_t>> counts_;
    void rebuildMeans(std::size_t c);
};

} // namespace sb::app
