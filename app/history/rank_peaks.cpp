#include "history/rank_peaks.hpp"

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"

#include <algorithm>
#include <cmath>

namespace sb::app {

double RankPeak::differencePercent() const
{
    if (measured <= 0 || estimated <= 0) return std::nan("");
    return (static_cast<double>(measured) / static_cast<double>(estimated) - 1.0) * 100.0;
}

std::vector<qint64> estimatedPeaks(const QString& planJson, int* steps)
{
    std::vector<qint64> peaks;
    if (steps) *steps = 0;
    if (planJson.isEmpty()) return peaks;
    LoadedPlan loaded = validateLoaded(planFromString(planJson.toStdString()));
    if (steps) *steps = loaded.plan.training.steps;
    if (loaded.ok())
        for (const RankEstimate& r : estimateMemory(loaded.plan, *loaded.tree).ranks) peaks.push_back(static_cast<qint64>(r.peakBytes));
    return peaks;
}

QList<RankPeak> readRankPeaks(store::RunReader& reader, const store::RunRow& row)
{
    const std::vector<qint64> estimated = estimatedPeaks(row.planJson);
    QList<RankPeak> out;
    const int ranks = std::max(row.worldSize, static_cast<int>(estimated.size()));
    for (int r = 0; r < ranks; ++r) {
        RankPeak p;
        p.rank = r;
        if (static_cast<std::size_t>(r) < estimated.size()) p.estimated = estimated[static_cast<std::size_t>(r)];
        out << p;
    }
    for (const store::RankSummary& s : reader.rankSummaries(row.id))
        if (s.rank >= 0 && s.rank < out.size()) out[s.rank].measured = s.peakMem;
    return out;
}

} // namespace sb::app
