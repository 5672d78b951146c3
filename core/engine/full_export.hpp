// Export of the unsharded model as one standard .safetensors file, named by
// module path. Rank 0 writes; parameters are gathered one at a time, so no
// rank holds more than one full parameter beyond its shards.
#pragma once

#include "fully_shard.hpp"
#include "util/status.hpp"

#include <map>
#include <string>
#include <vector>

namespace sb::engine {

// Collective over the shard group (every rank must call it). An error is
// reported on rank 0; other ranks return ok.
Status exportFullModel(FullyShard& fsdp, const ModuleTree& tree, DeviceMesh& mesh, const std::string& path,
                       const std::map<std::string, std::string>& metadata);
// Reference mode: the parameters are already full.
Status exportFullModel(const std::vector<torch::Tensor>& params, const ModuleTree& tree, const std::string& path,
                       const std::map<std::string, std::string>& metadata);

} // namespace sb::engine
