#include "rank_groups.hpp"

#include <QCoreApplication>
#include <QStringList>

#include <map>

namespace sb::gui {

namespace {
struct RankGroups {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::RankGroups)
};
} // namespace

std::vector<RankGroup> groupRanks(const Estimate& e)
{
    using Key = std::pair<decltype(MemBreakdown::bytes), std::uint64_t>;
    std::map<Key, std::size_t> index;
    std::vector<RankGroup> groups;
    for (const RankEstimate& r : e.ranks) {
        const Key key{r.atPeak.bytes, r.hostBytes};
        auto [it, added] = index.emplace(key, groups.size());
        if (added) {
            RankGroup g;
            g.rank = r.rank;
            groups.push_back(std::move(g));
        }
        RankGroup& g = groups[it->second];
        if (!g.ranges.empty() && g.ranges.back().second + 1 == r.rank) g.ranges.back().second = r.rank;
        else g.ranges.push_back({r.rank, r.rank});
        ++g.count;
    }
    return groups;
}

QString rankGroupLabel(const RankGroup& g, int maxRuns)
{
    QStringList parts;
    for (std::size_t i = 0; i < g.ranges.size() && static_cast<int>(i) < maxRuns; ++i) {
        const auto& [first, last] = g.ranges[i];
        parts << (first == last ? QString::number(first) : QStringLiteral("%1–%2").arg(first).arg(last));
    }
    QString label = parts.join(QStringLiteral(", "));
    const int runs = static_cast<int>(g.ranges.size());
    if (runs > maxRuns) label += RankGroups::tr(", … (%n run(s))", nullptr, runs);
    return label;
}

} // namespace sb::gui
