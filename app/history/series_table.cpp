#include "history/series_table.hpp"

#include <algorithm>
#include <cmath>

namespace sb::app {

SeriesTable::SeriesTable(int columns)
    : columns_(static_cast<std::size_t>(std::max(columns, 1))), index_(static_cast<std::size_t>(std::max(columns, 1))),
      sums_(columns_.size()), counts_(columns_.size())
{
}

void SeriesTable::keepMeans(int c)
{
    if (keepsMeans(c)) return;
    rebuildMeans(static_cast<std::size_t>(c));
}

void SeriesTable::rebuildMeans(std::size_t c)
{
    std::vector<double>& s = sums_[c];
    std::vector<std::uint32_t>& n = counts_[c];
    s.assign(1, 0.0);
    n.assign(1, 0);
    s.reserve(columns_[c].capacity() + 1);
    n.reserve(columns_[c].capacity() + 1);
    for (double v : columns_[c]) {
        const bool value = !std::isnan(v);
        s.push_back(s.back() + (value ? v : 0.0));
        n.push_back(n.back() + (value ? 1 : 0));
    }
}

void SeriesTable::reserve(qsizetype rows)
{
    x_.reserve(static_cast<std::size_t>(rows));
    for (auto& c : columns_) c.reserve(static_cast<std::size_t>(rows));
    for (std::size_t c = 0; c < columns_.size(); ++c)
        if (!sums_[c].empty()) {
            sums_[c].reserve(static_cast<std::size_t>(rows) + 1);
            counts_[c].reserve(static_cast<std::size_t>(rows) + 1);
        }
}

void SeriesTable::clear()
{
    ++generation_;
    x_.clear();
    for (auto& c : columns_) c.clear();
    for (auto& i : index_) i.clear();
    for (std::size_t c = 0; c < columns_.size(); ++c)
        if (!sums_[c].empty()) rebuildMeans(c);
}

void SeriesTable::truncate(qsizetype rows)
{
    if (rows >= size()) return;
    ++generation_;
    const auto n = static_cast<std::size_t>(std::max<qsizetype>(rows, 0));
    x_.resize(n);
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        columns_[c].resize(n);
        index_[c].rebuild(columns_[c]);
        if (!sums_[c].empty()) {
            sums_[c].resize(n + 1);
            counts_[c].resize(n + 1);
        }
    }
}

void SeriesTable::append(double x, const double* values)
{
    x_.push_back(x);
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        columns_[c].push_back(values[c]);
        index_[c].append(columns_[c]);
        if (!sums_[c].empty()) {
            const bool value = !std::isnan(values[c]);
            sums_[c].push_back(sums_[c].back() + (value ? values[c] : 0.0));
            counts_[c].push_back(counts_[c].back() + (value ? 1 : 0));
        }
    }
}

void SeriesTable::setColumn(int c, std::vector<double> values)
{
    ++generation_;
    const auto i = static_cast<std::size_t>(c);
    values.resize(x_.size(), std::nan(""));
    columns_[i] = std::move(values);
    index_[i].rebuild(columns_[i]);
    if (!sums_[i].empty()) rebuildMeans(i);
}

std::pair<std::size_t, std::size_t> SeriesTable::rowsBetween(double x0, double x1) const
{
    const auto first = std::lower_bound(x_.begin(), x_.end(), x0);
    const auto last = std::upper_bound(first, x_.end(), x1);
    return {static_cast<std::size_t>(first - x_.begin()), static_cast<std::size_t>(last - x_.begin())};
}

QList<QPointF> SeriesTable::decimated(int c, double x0, double x1, int pixels) const
{
    QList<QPointF> out;
    if (x_.empty() || !(x1 >= x0)) return out;
    const std::vector<double>& y = columns_[static_cast<std::size_t>(c)];
    auto [begin, end] = rowsBetween(x0, x1);
    // One point beyond each end, so the line runs to the plot's edges.
    if (begin > 0) --begin;
    if (end < x_.size()) ++end;
    auto put = [&](std::size_t i) {
        if (!std::isnan(y[i])) out.append(QPointF(x_[i], y[i]));
    };
    pixels = std::max(pixels, 1);
    if (end - begin <= static_cast<std::size_t>(pixels) * 4) {
        out.reserve(static_cast<qsizetype>(end - begin));
        for (std::size_t i = begin; i < end; ++i) put(i);
        return out;
    }
    out.reserve(static_cast<qsizetype>(pixels) * 4 + 2);
    const MinMaxPyramid& index = index_[static_cast<std::size_t>(c)];
    const double width = (x1 - x0) / pixels;
    std::size_t a = begin;
    // Rows left of x0 (the one extra row) and right of x1 form their own buckets.
    auto bucket = [&](std::size_t from, std::size_t to) {
        if (from >= to) return;
        const MinMaxPyramid::Extremes e = index.query(y, from, to);
        std::size_t picks[4] = {from, to - 1, from, from};
        int n = 2;
        if (e.minIndex >= 0) {
            picks[n++] = static_cast<std::size_t>(e.minIndex);
            picks[n++] = static_cast<std::size_t>(e.maxIndex);
        }
        std::sort(picks, picks + n);
        const std::size_t* last = std::unique(picks, picks + n);
        for (const std::size_t* p = picks; p != last; ++p) put(*p);
    };
    for (int p = 0; p <= pixels && a < end; ++p) {
        // Pixel p holds x in [x0 + p*width, x0 + (p+1)*width); the last one also x1.
        const double bound = p == pixels ? x1 : x0 + (p + 1) * width;
        std::size_t b = p == pixels ? end
                                    : static_cast<std::size_t>(std::lower_bound(x_.begin() + static_cast<std::ptrdiff_t>(a),
                                                                                x_.begin() + static_cast<std::ptrdiff_t>(end), bound) -
                                                               x_.begin());
        if (p == 0 && a < b && x_[a] < x0) { // the row before the range
            put(a);
            ++a;
        }
        if (p == pixels && b > a && x_[b - 1] > x1) { // the row after the range
            bucket(a, b - 1);
            put(b - 1);
            a = b;
            break;
        }
        bucket(a, b);
        a = b;
    }
    return out;
}

QList<QPointF> SeriesTable::averaged(int c, double x0, double x1, int pixels) const
{
    if (!keepsMeans(c)) return decimated(c, x0, x1, pixels);
    QList<QPointF> out;
    if (x_.empty() || !(x1 >= x0)) return out;
    auto [begin, end] = rowsBetween(x0, x1);
    if (begin > 0) --begin;
    if (end < x_.size()) ++end;
    pixels = std::max(pixels, 1);
    const std::vector<double>& y = columns_[static_cast<std::size_t>(c)];
    if (end - begin <= static_cast<std::size_t>(pixels) * 2) {
        for (std::size_t i = begin; i < end; ++i)
            if (!std::isnan(y[i])) out.append(QPointF(x_[i], y[i]));
        return out;
    }
    const std::vector<double>& sum = sums_[static_cast<std::size_t>(c)];
    const std::vector<std::uint32_t>& count = counts_[static_cast<std::size_t>(c)];
    out.reserve(pixels + 2);
    const double width = (x1 - x0) / pixels;
    std::size_t a = begin;
    for (int p = 0; p <= pixels && a < end; ++p) {
        const double bound = p == pixels ? x1 : x0 + (p + 1) * width;
        const std::size_t b = p == pixels ? end
                                          : static_cast<std::size_t>(std::lower_bound(x_.begin() + static_cast<std::ptrdiff_t>(a),
                                                                                      x_.begin() + static_cast<std::ptrdiff_t>(end), bound) -
                                                                     x_.begin());
        if (b > a && count[b] > count[a])
            out.append(QPointF(x_[(a + b - 1) / 2], (sum[b] - sum[a]) / (count[b] - count[a])));
        a = b;
    }
    return out;
}

bool SeriesTable::valueRange(int c, double x0, double x1, double* low, double* high) const
{
    const auto [begin, end] = rowsBetween(x0, x1);
    const std::vector<double>& y = columns_[static_cast<std::size_t>(c)];
    const MinMaxPyramid::Extremes e = index_[static_cast<std::size_t>(c)].query(y, begin, end);
    if (e.minIndex < 0) return false;
    *low = y[static_cast<std::size_t>(e.minIndex)];
    *high = y[static_cast<std::size_t>(e.maxIndex)];
    return true;
}

} // namespace sb::app
