// Deterministic per-parameter initialisation that does not depend on the
// world size: element i of parameter P gets a value derived from (seed, P's
// name, i) alone, so a rank fills only its own rows and every sharding of
// the model starts from the same weights.
#pragma once

#include "plan/module_tree.hpp"

#include <torch/torch.h>

#include <cstdint>

namespace sb::engine {

// Fills `dst` (contiguous fp32 on any device, rowCount x rowNumel) with rows
// [firstRow, firstRow + rowCount) of parameter `param` of `tree`.
void initParamRows(torch::Tensor dst, const ModuleTree& tree, int param, std::int64_t firstRow, std::uint64_t seed);
// The whole parameter, fp32 on the compute device, a leaf that requires grad (unsharded reference
// and parameters that a unit excludes with ignored_params).
torch::Tensor initFullParam(const ModuleTree& tree, int param, std::uint64_t seed);

} // namespace sb::engine
