// Initial weights from one standard .safetensors file of the unsharded model
// (F32, BF16 or F16 tensors named by module path), or from a Hugging Face
// checkpoint (hf/hf_weights.hpp: names mapped, Llama's q/k rows permuted):
// rank 0 reads one parameter at a time and broadcasts it; every rank keeps
// only its rows (all of a parameter no unit shards).
#pragma once

#include "fully_shard.hpp"
#include "util/status.hpp"

#include <string>
#include <vector>

namespace sb::engine {

// Collective over the world. An error is reported on every rank.
Status importFullModel(FullyShard& fsdp, const ModuleTree& tree, const ModelConfig& model, DeviceMesh& mesh,
                       const std::string& path);
// Reference mode: `params` are the full tensors in tree order (tied ones skipped).
Status importFullModel(std::vector<torch::Tensor>& params, const ModuleTree& tree, const ModelConfig& model,
                       const std::string& path);

} // namespace sb::engine
