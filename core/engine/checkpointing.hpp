// The autograd functions fully_shard inserts: an identity on a unit's input
// whose backward runs after the unit's gradients exist (post-backward), and
// activation checkpointing (forward without saving; recompute in backward).
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// Identity; its backward calls FullyShard::active()->postBackward(unit).
torch::Tensor registerPostBackward(const torch::Tensor& x, int unit);
// Runs the unit's body without keeping activations; `anchor` is any tensor
// requiring grad (a parameter of the unit) so that backward always reaches it.
torch::Tensor checkpointUnit(const torch::Tensor& x, const torch::Tensor& anchor, int unit);

} // namespace sb::engine
