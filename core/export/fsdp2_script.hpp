// A plan as a runnable PyTorch FSDP2 training script: fully_shard per unit
// bottom-up with the unit's MixedPrecisionPolicy, offload policy and
// reshard_after_forward, explicit prefetch, the optimizer built after
// sharding, DCP checkpoints. Run with torchrun.
#pragma once

#include "../plan/plan.hpp"

#include <string>

namespace sb {

std::string exportFsdp2Script(const Plan& plan, const ModuleTree& tree);

} // namespace sb
