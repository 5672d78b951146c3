// Ranks whose memory is identical, shown as one bar: with 1024 ranks there
// are usually only a handful of distinct breakdowns (the last shard ranks of
// an uneven dim 0 hold fewer rows). Unlike estimate_report.cpp's runs, a group
// may gather several runs, since HSDP replicas repeat the same pattern.
#pragma once

#include "estimate/estimate.hpp"

#include <QString>

#include <utility>
#include <vector>

namespace sb::gui {

struct RankGroup {
    std::vector<std::pair<int, int>> ranges; // [first, last] runs of ranks, ascending
    int count = 0;                           // ranks in the group
    int rank = 0;                            // a representative (the first)
};

// Groups ordered by their first rank.
std::vector<RankGroup> groupRanks(const Estimate& e);

// "0–1016", "1017", "0–3, 8–11", "0–3, 8–11, … (5 runs)"
QString rankGroupLabel(const RankGroup& g, int maxRuns = 2);

} // namespace sb::gui
