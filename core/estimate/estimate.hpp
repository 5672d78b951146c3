// Per-rank memory of an FSDP2-style plan, by category, and a timeline of one
// training step whose maximum is the peak. Pure C++: no Qt, no Torch.
// docs/memory-model.md states the model and its assumptions.
#pragma once

#include "../plan/plan.hpp"
#include "../plan/resolve.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sb {

enum class MemCategory {
    ShardedParams,   // dim-0 shards (padded) in the parameter's dtype, on device unless offloaded
    ShardedGrads,    // sharded gradients, same dtype
    OptimizerState,  // AdamW exp_avg + exp_avg_sq, same dtype
    UnshardedParams, // gathered parameters in param_dtype: computing, kept, prefetched, 1/k copies
    CommBuffers,     // all-gather outputs, reduce-scatter inputs/outputs
    UnshardedGrads,  // full-size gradients before reduce-scatter (and across no-sync micro-batches)
    Activations,     // tensors saved for backward and backward workspace
    LogitsLoss,      // logits, log-softmax and their gradients
    Other,           // input tokens, optimizer temporaries
    Count
};
inline constexpr int kMemCategories = static_cast<int>(MemCategory::Count);
const char* memCategoryName(MemCategory c);  // snake_case key used in JSON and CSV
const char* memCategoryLabel(MemCategory c); // English label for tables

struct MemBreakdown {
    std::array<std::uint64_t, kMemCategories> bytes{};
    std::uint64_t& operator[](MemCategory c) { return bytes[static_cast<std::size_t>(c)]; }
    std::uint64_t operator[](MemCategory c) const { return bytes[static_cast<std::size_t>(c)]; }
    std::uint64_t total() const;
};

enum class StepPhase { Start, PreForward, PostForward, Loss, PreBackward, Backward, PostBackward, Optimizer };
const char* stepPhaseName(StepPhase p);

struct TimelinePoint {
    StepPhase phase = StepPhase::Start;
    int unit = -1;            // resolved unit index, -1 for step-level points
    std::string label;        // "pre-forward layers.3"
    MemBreakdown memory;
};

struct RankEstimate {
    int rank = 0;
    MemBreakdown atPeak;      // breakdown at the peak point
    std::uint64_t peakBytes = 0;
    int peakPoint = 0;        // index into the rank's timeline
    std::uint64_t hostBytes = 0; // offloaded state in host memory
};

struct Estimate {
    std::int64_t paramsTotal = 0;
    std::int64_t paramsSharded = 0;   // managed by a unit (not ignored)
    int worldSize = 1;
    int shardSize = 1;
    int units = 0;
    std::uint64_t capacityBytes = 0;
    std::vector<RankEstimate> ranks;  // one per rank
    int worstRank = 0;
    std::vector<TimelinePoint> timeline; // of the worst rank
    std::uint64_t peakBytes() const { return ranks.empty() ? 0 : ranks[static_cast<std::size_t>(worstRank)].peakBytes; }
    bool fits() const { return peakBytes() <= capacityBytes; }
};

struct EstimateOptions {
    bool timeline = true;     // also return the worst rank's timeline
};

// The plan must have been validated (no errors) against `tree`.
Estimate estimateMemory(const Plan& plan, const ModuleTree& tree, const ResolvedPlan& resolved,
                        const EstimateOptions& options = {});
Estimate estimateMemory(const Plan& plan, const ModuleTree& tree);

// Largest micro-batch (>= 1) whose peak fits the device, or 0 if even 1 does not.
int largestFittingMicroBatch(const Plan& plan, const ModuleTree& tree, int limit = 1 << 16);

} // namespace sb
