// The training loop of one rank: data, forward, loss, backward (through
// fully_shard or, in reference mode, plain unsharded autograd), global-norm
// clipping, AdamW, learning-rate schedule, and a `step` event per step.
#pragma once

#include "dist_env.hpp"
#include "process_groups.hpp"

#include "plan/plan_json.hpp"

#include <string>

namespace sb::engine {

struct TrainerOptions {
    // Reference mode: the same model and data, unsharded in one process, with
    // plain autograd, clip_grad_norm_'s norm and factor and the engine's AdamW
    // (checked against LibTorch's own, tst_engine_fused_adamw) on full tensors
    // and the plan's global batch (micro_batch x world) as one micro-batch. The
    // independent baseline the sharded runs are checked against.
    bool reference = false;
    // After the last step, write the unsharded model here (.safetensors).
    std::string exportPath;
    // Resume from a sharded checkpoint (a step folder, a run's folder of them,
    // or "auto": this run's folder DIR/<run id> when it holds one).
    std::string resumePath;
    // Initial weights from a full .safetensors file (rank 0 reads, shards are sent).
    std::string initFrom;
    std::string runId;
};

// Returns the process exit code (docs/protocol.md).
int train(const LoadedPlan& plan, const DistEnv& env, DeviceMesh& mesh, const TrainerOptions& options);

} // namespace sb::engine
