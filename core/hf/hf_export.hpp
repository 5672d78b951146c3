// The core's unsharded weights (one .safetensors of the core's names, as
// `checkpoint export` writes it) as a Hugging Face checkpoint a transformers
// user can load: config.json, Hugging Face names, Llama's q/k rows permuted
// to the rotate_half layout (transformers' convert_llama_weights_to_hf.py),
// F32 or BF16, and above a size one file per shard with
// model.safetensors.index.json. Llama and GPT-2 only. Torch-free.
#pragma once

#include "checkpoint/checkpoint_io.hpp"
#include "plan/model_config.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace sb::hf {

struct ExportOptions {
    bool bf16 = false;                          // else F32
    std::uint64_t maxShardBytes = 5ull << 30;   // transformers' default max_shard_size (5 GB)
};

// The Hugging Face name of a core parameter; nullopt when Hugging Face keeps no
// tensor for it (an output tied to the embedding).
std::optional<std::string> hfNameOf(const std::string& corePath, const ModelConfig& model);

// Writes `outDir` (created; refused when it holds files) from `coreFile`.
Status writeHfCheckpoint(const std::string& coreFile, const ModelConfig& model, const std::string& outDir,
                         const ExportOptions& options);

// A checkpoint folder (step-NNNNNN) of the core as a Hugging Face checkpoint
// in `outDir`: its index's plan gives the model; the unsharded weights go
// through a temporary file beside `outDir` (removed). `progress` sees the
// unsharding, and may cancel it.
Status exportCheckpointAsHf(const std::string& checkpointDir, const std::string& outDir, const ExportOptions& options,
                            const ckpt::Progress& progress = {});

// fp32 -> bf16, rounding to nearest even (NaN stays NaN), as torch's .to(torch.bfloat16).
std::uint16_t bf16Bits(float value);

} // namespace sb::hf
