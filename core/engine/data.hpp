// Training data for one rank: synthetic sequences (seeded, learnable), a token
// file (nanoGPT's, llm.c's or Megatron's; core/data/token_file.hpp), or raw text
// read as bytes. Sample g of the run is the same whatever the world size; a
// rank reads the samples of its own slice of each global batch.
//
// The validation loss's held-out data (training.eval): a file of its own, or
// the last `holdout` fraction of the training file (training then samples only
// the part before it), read as consecutive windows, sample i starting i * seq
// tokens in (wrapping around); synthetic data's held-out stream is the samples
// from kEvalFirstSample on, which training never reaches.
#pragma once

#include "plan/plan.hpp"
#include "util/status.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace sb::engine {

// The data itself is wrong (a token id beyond the vocabulary, fewer tokens
// than one sequence), found while training reads it: the rank exits as bad
// input (2), which no restart retries, since it would read the same bytes.
struct BadDataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class DataSource {
public:
    virtual ~DataSource() = default;
    // Samples [first, first + batch): inputs and next-token targets, [batch, seq] int64.
    virtual void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) = 0;

    // Opens the plan's training source, or says why it cannot.
    static Result<std::unique_ptr<DataSource>> open(const TrainingConfig& training, std::int64_t vocab);
    // Opens the held-out source of training.eval (which must be enabled).
    static Result<std::unique_ptr<DataSource>> openEval(const TrainingConfig& training, std::int64_t vocab);

    static constexpr std::uint64_t kEvalFirstSample = 1ull << 62;
};

} // namespace sb::engine
