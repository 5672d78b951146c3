// AdamW over the parameters a rank updates, in two groups: those it decays
// and, as the plan's optimizer.no_decay asks (nanoGPT, TorchTitan), those it
// does not: "1d" (fewer than 2 dimensions: norms and biases), "embeddings"
// (an Embedding's weight, and anything tied to it).
#pragma once

#include "fused_adamw.hpp"
#include "plan/plan.hpp"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace sb::engine {

bool decays(const ModuleTree& tree, int param, const OptimizerConfig& o);

// `params[i]` holds tree parameter `index[i]` (whole, or this rank's rows).
std::unique_ptr<FusedAdamW> makeAdamW(const std::vector<torch::Tensor>& params, const std::vector<int>& index,
                                     const ModuleTree& tree, const OptimizerConfig& o);

// The learning rate of every group.
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

} // namespace sb::engine
