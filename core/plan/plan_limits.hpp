// The bounds of a plan's numbers and the defaults a plan takes where it is
// silent, each defined once: plan files (plan_json.cpp, model_presets.cpp),
// `shardbench-cli plan`, restore and the workbench's fields all use these.
// (Not in plan.hpp, which nearly every file includes.)
#pragma once

#include <cstdint>

namespace sb::plan_limits {

// The model. A plan file holds sizes up to kMaxModelSize (the workbench's
// fields too: a large value is kept as typed); ModelConfig::validate then
// reports each one above its own bound below as a problem of the plan.
inline constexpr std::int64_t kMaxModelSize = std::int64_t(1) << 40;
inline constexpr std::int64_t kMaxVocab = 1 << 24;
inline constexpr std::int64_t kMaxDim = 1 << 20;
inline constexpr std::int64_t kMaxLayers = 100000;
inline constexpr std::int64_t kMaxHeads = 1 << 14; // query and key/value heads alike
inline constexpr std::int64_t kMaxHeadDim = 1 << 14;
inline constexpr std::int64_t kMaxFfn = 1 << 22;
inline constexpr std::int64_t kMaxSeqLen = 1 << 22; // the model's max_seq_len and training's seq_len
inline constexpr std::int64_t kMaxSlidingWindow = std::int64_t(1) << 40;

// The mesh.
inline constexpr int kMaxNodes = 1 << 20;
inline constexpr int kMaxProcsPerNode = 1024;
inline constexpr int kMaxReplicate = 1 << 20;
inline constexpr int kMaxWorldSize = 1 << 30;
inline constexpr int kMaxReshardGroup = 1 << 20; // reshard_after_forward as a group of k ranks
inline constexpr double kMaxMemoryGiB = 1e7;

// Training.
inline constexpr int kMaxMicroBatch = 1 << 20;
inline constexpr int kMaxGradAccum = 1 << 20;
inline constexpr int kMaxSteps = 1 << 30; // steps, warmup, eval and checkpoint periods
inline constexpr std::int64_t kMaxSeed = std::int64_t(1) << 53;
inline constexpr int kMaxCheckpointsKept = 1 << 20;

// How many batches the validation loss takes where a plan asks for one
// without saying how many: an "eval" object in a plan file, `plan
// --val-data-path`, a validation file typed in the workbench.
inline constexpr int kDefaultEvalBatches = 8;

} // namespace sb::plan_limits
