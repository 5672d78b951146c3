// Times the memory estimator on large plans (not a test: results go to
// docs/performance.md, "Estimator"). Each case runs `runs` times after a
// warm-up; medians are what the goal (< 5 ms) is about.
//
//   shardbench-estimate-bench [--runs N]
#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"
#include "plan/resolve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
    double median = 0, min = 0, p90 = 0;
};

Stats measure(int runs, const std::function<void()>& f)
{
    f(); // warm-up: first-touch allocations, caches
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front(), ms[ms.size() * 9 / 10]};
}

sb::LoadedPlan load(sb::Plan plan)
{
    sb::LoadedPlan lp = sb::validateLoaded(sb::PlanReadResult{std::move(plan), {}});
    if (!lp.ok()) {
        for (const sb::Problem& p : lp.problems) std::fprintf(stderr, "%s\n", sb::formatProblem(p).c_str());
        std::exit(2);
    }
    return lp;
}

volatile std::uint64_t sink = 0; // keeps the optimiser from dropping the work

void row(const char* what, const Stats& s)
{
    std::printf("| %-58s | %8.3f | %8.3f | %8.3f |\n", what, s.median, s.min, s.p90);
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 200;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else { std::fprintf(stderr, "usage: shardbench-estimate-bench [--runs N]\n"); return 2; }
    }

    // 1000-layer tutorial Transformer, every block a unit (1001 units), 8 ranks.
    sb::ModelConfig big = *sb::presetConfig("transformer");
    big.nLayers = 1000;
    sb::Plan deep = sb::defaultPlan(big);
    deep.mesh.procsPerNode = 8;
    const sb::LoadedPlan a = load(deep);

    // Llama-3 70B on 1024 ranks (128 nodes x 8 H100), every block a unit
    // with bf16 compute, fp32 reduction and activation checkpointing.
    sb::Plan llama = sb::defaultPlan(*sb::presetConfig("llama3-70b"));
    llama.mesh.nodes = 128;
    llama.mesh.procsPerNode = 8;
    for (sb::UnitPolicy& u : llama.units) {
        u.mp.paramDtype = sb::DType::BF16;
        u.mp.reduceDtype = sb::DType::F32;
        if (!u.module.empty()) u.ac = sb::Checkpointing::Full;
    }
    const sb::LoadedPlan b = load(llama);

    std::printf("%d runs per case, milliseconds\n\n", runs);
    std::printf("| %-58s | %8s | %8s | %8s |\n", "case", "median", "min", "p90");
    std::printf("|%s|---------:|---------:|---------:|\n", std::string(60, '-').c_str());
    for (const auto& [name, lp] : {std::pair<const char*, const sb::LoadedPlan*>{"transformer 1000 layers, 1001 units, 8 ranks", &a},
                                   std::pair<const char*, const sb::LoadedPlan*>{"llama3-70b, 81 units, 1024 ranks, bf16, checkpointing", &b}}) {
        const sb::Plan& plan = lp->plan;
        const sb::ModuleTree& tree = *lp->tree;
        const sb::ResolvedPlan resolved = sb::resolvePlan(plan, tree);
        std::printf("| **%s** (%d modules, %d tensors) | | | |\n", name, static_cast<int>(tree.modules().size()),
                    static_cast<int>(tree.params().size()));
        row("estimateMemory (resolve + estimate + timeline)", measure(runs, [&] { sink += sb::estimateMemory(plan, tree).peakBytes(); }));
        row("estimateMemory, plan already resolved, with timeline", measure(runs, [&] {
                sink += sb::estimateMemory(plan, tree, resolved).peakBytes();
            }));
        row("estimateMemory, plan already resolved, no timeline", measure(runs, [&] {
                sink += sb::estimateMemory(plan, tree, resolved, sb::EstimateOptions{false}).peakBytes();
            }));
        row("largestFittingMicroBatch (a search of ~20 estimates)", measure(std::max(1, runs / 10), [&] {
                sink += static_cast<std::uint64_t>(sb::largestFittingMicroBatch(plan, tree));
            }));
        row("resolvePlan", measure(runs, [&] { sink += sb::resolvePlan(plan, tree).units.size(); }));
        row("validatePlan (tree built)", measure(runs, [&] { sink += sb::validatePlan(plan, tree).size(); }));
        row("validateLoaded (build tree + validate)", measure(runs, [&] {
                sink += sb::validateLoaded(sb::PlanReadResult{plan, {}}).problems.size();
            }));
    }
    return 0;
}
