// Where the lowest and highest value of any index range of an append-only
// column lie, in O(log n): a pyramid of blocks of 16, 256, 4096... points,
// each remembering the index of its minimum and maximum. NaN values are
// never a minimum or maximum.
#pragma once

#include <cstdint>
#include <vector>

namespace sb::app {

class MinMaxPyramid {
public:
    static constexpr std::size_t kFanOut = 16;

    // `values` is the column the pyramid indexes; call append() after each
    // value is added to it (the column may reallocate: it is passed again).
    void append(const std::vector<double>& values);
    void rebuild(const std::vector<double>& values);
    void clear() { levels_.clear(); }

    struct Extremes {
        std::int64_t minIndex = -1; // -1 when every value in the range is NaN
        std::int64_t maxIndex = -1;
    };
    // Extremes of values[begin, end).
    Extremes query(const std::vector<double>& values, std::size_t begin, std::size_t end) const;

private:
    struct Level {
        std::vector<std::uint32_t> minIndex, maxIndex;
    };
    void pushBlock(const std::vector<double>& values, std::size_t level);
    // Level 0 is made of blocks of kFanOut raw points; level L of kFanOut^(L+1).
    std::vector<Level> levels_;
};

} // namespace sb::app
