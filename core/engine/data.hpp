// Training data for one rank: synthetic sequences (seeded, learnable), a flat
// file of uint16 token ids (nanoGPT's train.bin), or raw text read as bytes.
// Sample g of the run is the same whatever the world size; a rank reads the
// samples of its own slice of each global batch.
#pragma once

#include "plan/plan.hpp"
#include "util/status.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>

namespace sb::engine {

class DataSource {
public:
    virtual ~DataSource() = default;
    // Samples [first, first + batch): inputs and next-token targets, [batch, seq] int64.
    virtual void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) = 0;

    // Opens the plan's source, or says why it cannot.
    static Result<std::unique_ptr<DataSource>> open(const TrainingConfig& training, std::int64_t vocab);
};

} // namespace sb::engine
