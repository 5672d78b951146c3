#include "estimate_report.hpp"

#include <cstdio>

namespace sb {

std::string formatBytes(std::uint64_t bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) { v /= 1024.0; ++u; }
    char buf[32];
    if (u == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
    return buf;
}

std::string formatCount(std::int64_t n)
{
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

namespace {

std::string pad(std::string s, std::size_t width, bool right = false)
{
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

// Ranks with identical breakdowns, as [first, last] runs.
std::vector<std::pair<int, int>> rankGroups(const Estimate& e)
{
    std::vector<std::pair<int, int>> groups;
    for (const RankEstimate& r : e.ranks) {
        if (!groups.empty()) {
            const RankEstimate& prev = e.ranks[static_cast<std::size_t>(groups.back().second)];
            if (prev.atPeak.bytes == r.atPeak.bytes && prev.hostBytes == r.hostBytes) {
                groups.back().second = r.rank;
                continue;
            }
        }
        groups.push_back({r.rank, r.rank});
    }
    return groups;
}

std::string groupName(const std::pair<int, int>& g)
{
    return g.first == g.second ? "rank " + std::to_string(g.first)
                               : "ranks " + std::to_string(g.first) + "-" + std::to_string(g.second);
}

} // namespace

std::string estimateTable(const Plan& plan, const Estimate& e)
{
    std::string out;
    const RankEstimate& worst = e.ranks[static_cast<std::size_t>(e.worstRank)];
    char line[256];
    std::snprintf(line, sizeof line, "Model     %s: %s parameters, %d shard units\n", plan.model.preset.c_str(),
                  formatCount(e.paramsTotal).c_str(), e.units);
    out += line;
    std::snprintf(line, sizeof line, "Mesh      %d node(s) x %d %s, world %d, shard group %d, replicate %d\n", plan.mesh.nodes,
                  plan.mesh.procsPerNode, plan.mesh.device == Device::Cuda ? "cuda" : "cpu", e.worldSize, e.shardSize,
                  plan.mesh.replicate);
    out += line;
    std::snprintf(line, sizeof line, "Training  micro-batch %d x sequence %d, %d accumulation step(s)\n",
                  plan.training.microBatch, plan.training.seqLen, plan.training.gradAccum);
    out += line;
    const std::string where = worst.peakPoint < static_cast<int>(e.timeline.size())
                                  ? e.timeline[static_cast<std::size_t>(worst.peakPoint)].label
                                  : std::string("?");
    std::snprintf(line, sizeof line, "Peak      %s on rank %d at \"%s\"\n", formatBytes(worst.peakBytes).c_str(),
                  e.worstRank, where.c_str());
    out += line;
    const std::uint64_t cap = e.capacityBytes;
    if (e.fits())
        std::snprintf(line, sizeof line, "Capacity  %s (%s): fits, %s to spare\n", formatBytes(cap).c_str(),
                      plan.mesh.deviceName.c_str(), formatBytes(cap - worst.peakBytes).c_str());
    else
        std::snprintf(line, sizeof line, "Capacity  %s (%s): DOES NOT FIT, over by %s\n", formatBytes(cap).c_str(),
                      plan.mesh.deviceName.c_str(), formatBytes(worst.peakBytes - cap).c_str());
    out += line;
    out += "\n";

    const auto groups = rankGroups(e);
    const std::size_t shown = std::min<std::size_t>(groups.size(), 4);
    out += pad("Category at peak", 26);
    for (std::size_t g = 0; g < shown; ++g) out += pad(groupName(groups[g]), 18, true);
    out += "\n";
    for (int c = 0; c < kMemCategories; ++c) {
        out += pad(memCategoryLabel(static_cast<MemCategory>(c)), 26);
        for (std::size_t g = 0; g < shown; ++g)
            out += pad(formatBytes(e.ranks[static_cast<std::size_t>(groups[g].first)].atPeak.bytes[static_cast<std::size_t>(c)]), 18, true);
        out += "\n";
    }
    out += pad("Total", 26);
    for (std::size_t g = 0; g < shown; ++g) out += pad(formatBytes(e.ranks[static_cast<std::size_t>(groups[g].first)].peakBytes), 18, true);
    out += "\n";
    out += pad("Host (offloaded state)", 26);
    for (std::size_t g = 0; g < shown; ++g) out += pad(formatBytes(e.ranks[static_cast<std::size_t>(groups[g].first)].hostBytes), 18, true);
    out += "\n";
    if (groups.size() > shown)
        out += "(" + std::to_string(groups.size() - shown) + " more rank groups; use --json for all ranks)\n";
    return out;
}

namespace {

json::Value breakdownJson(const MemBreakdown& b)
{
    json::Value o = json::Value::object();
    for (int c = 0; c < kMemCategories; ++c)
        o.set(memCategoryName(static_cast<MemCategory>(c)), static_cast<long long>(b.bytes[static_cast<std::size_t>(c)]));
    return o;
}

} // namespace

json::Value estimateJson(const Plan& plan, const Estimate& e, bool withTimeline)
{
    json::Value root = json::Value::object();
    root.set("model", plan.model.preset);
    root.set("params_total", static_cast<long long>(e.paramsTotal));
    root.set("params_sharded", static_cast<long long>(e.paramsSharded));
    root.set("world_size", e.worldSize);
    root.set("shard_size", e.shardSize);
    root.set("units", e.units);
    root.set("capacity_bytes", static_cast<long long>(e.capacityBytes));
    root.set("peak_bytes", static_cast<long long>(e.peakBytes()));
    root.set("worst_rank", e.worstRank);
    root.set("fits", e.fits());
    json::Value ranks = json::Value::array();
    for (const RankEstimate& r : e.ranks) {
        json::Value jr = json::Value::object();
        jr.set("rank", r.rank);
        jr.set("peak_bytes", static_cast<long long>(r.peakBytes));
        jr.set("host_bytes", static_cast<long long>(r.hostBytes));
        if (r.peakPoint < static_cast<int>(e.timeline.size()))
            jr.set("peak_at", e.timeline[static_cast<std::size_t>(r.peakPoint)].label);
        jr.set("categories", breakdownJson(r.atPeak));
        ranks.push(jr);
    }
    root.set("ranks", ranks);
    if (withTimeline) {
        json::Value tl = json::Value::array();
        for (const TimelinePoint& p : e.timeline) {
            json::Value jp = json::Value::object();
            jp.set("phase", stepPhaseName(p.phase));
            jp.set("label", p.label);
            jp.set("total_bytes", static_cast<long long>(p.memory.total()));
            jp.set("categories", breakdownJson(p.memory));
            tl.push(jp);
        }
        root.set("timeline", tl);
    }
    return root;
}

std::string estimateCsv(const Estimate& e)
{
    std::string out = "rank,peak_bytes";
    for (int c = 0; c < kMemCategories; ++c) out += std::string(",") + memCategoryName(static_cast<MemCategory>(c));
    out += ",host_bytes\n";
    for (const RankEstimate& r : e.ranks) {
        out += std::to_string(r.rank) + "," + std::to_string(r.peakBytes);
        for (std::uint64_t b : r.atPeak.bytes) out += "," + std::to_string(b);
        out += "," + std::to_string(r.hostBytes) + "\n";
    }
    return out;
}

} // namespace sb
