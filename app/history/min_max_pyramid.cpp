#include "history/min_max_pyramid.hpp"

#include <cmath>

namespace sb::app {

namespace {

void keep(const std::vector<double>& v, std::uint32_t candidate, std::int64_t& minI, std::int64_t& maxI)
{
    const double x = v[candidate];
    if (std::isnan(x)) return;
    if (minI < 0 || x < v[static_cast<std::size_t>(minI)]) minI = candidate;
    if (maxI < 0 || x > v[static_cast<std::size_t>(maxI)]) maxI = candidate;
}

} // namespace

void MinMaxPyramid::pushBlock(const std::vector<double>& values, std::size_t level)
{
    if (levels_.size() <= level) levels_.resize(level + 1);
    std::int64_t minI = -1, maxI = -1;
    if (level == 0) {
        const std::size_t first = levels_[0].minIndex.size() * kFanOut;
        for (std::size_t i = first; i < first + kFanOut; ++i) keep(values, static_cast<std::uint32_t>(i), minI, maxI);
        if (minI < 0) minI = maxI = static_cast<std::int64_t>(first); // all NaN: any index, itself NaN
    } else {
        const Level& below = levels_[level - 1];
        const std::size_t first = levels_[level].minIndex.size() * kFanOut;
        for (std::size_t b = first; b < first + kFanOut; ++b) {
            keep(values, below.minIndex[b], minI, maxI);
            keep(values, below.maxIndex[b], minI, maxI);
        }
        if (minI < 0) minI = maxI = below.minIndex[first];
    }
    levels_[level].minIndex.push_back(static_cast<std::uint32_t>(minI));
    levels_[level].maxIndex.push_back(static_cast<std::uint32_t>(maxI));
    // A level full of another kFanOut blocks completes a block of the level above.
    if (levels_[level].minIndex.size() % kFanOut == 0) pushBlock(values, level + 1);
}

void MinMaxPyramid::append(const std::vector<double>& values)
{
    if (!values.empty() && values.size() % kFanOut == 0) pushBlock(values, 0);
}

void MinMaxPyramid::rebuild(const std::vector<double>& values)
{
    levels_.clear();
    for (std::size_t n = kFanOut; n <= values.size(); n += kFanOut) pushBlock(values, 0);
}

MinMaxPyramid::Extremes MinMaxPyramid::query(const std::vector<double>& values, std::size_t begin, std::size_t end) const
{
    Extremes e;
    if (end > values.size()) end = values.size();
    if (begin >= end) return e;
    std::size_t lo = begin, hi = end;
    std::size_t span = 1; // raw points per unit at the current level
    std::size_t level = 0; // 0: raw points; L >= 1: levels_[L - 1]
    auto unit = [&](std::size_t at) {
        if (level == 0) {
            keep(values, static_cast<std::uint32_t>(at), e.minIndex, e.maxIndex);
        } else {
            const Level& l = levels_[level - 1];
            const std::size_t b = at / span;
            keep(values, l.minIndex[b], e.minIndex, e.maxIndex);
            keep(values, l.maxIndex[b], e.minIndex, e.maxIndex);
        }
    };
    while (lo < hi) {
        const std::size_t next = span * kFanOut;
        const std::size_t loUp = (lo + next - 1) / next * next;
        const std::size_t hiDown = hi / next * next;
        if (level < levels_.size() && loUp < hiDown) {
            for (std::size_t i = lo; i < loUp; i += span) unit(i);
            for (std::size_t i = hiDown; i < hi; i += span) unit(i);
            lo = loUp;
            hi = hiDown;
            span = next;
            ++level;
        } else {
            for (std::size_t i = lo; i < hi; i += span) unit(i);
            break;
        }
    }
    return e;
}

} // namespace sb::app
