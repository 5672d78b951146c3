// Where each parameter of the core's model lies in a weights file given to
// --init-from: one .safetensors of the core's names (as `checkpoint export`
// writes it), or a Hugging Face checkpoint as published: a folder with
// model.safetensors or model.safetensors.index.json and its shards, or
// either file. Hugging Face names map onto the core's; Llama's q/k
// projections (and Qwen's q/k biases and norms) are marked for the row permutation back from Hugging Face's
// rotate_half layout to the interleaved pairs the core rotates (the inverse
// of transformers' convert_llama_weights_to_hf.py). Torch-free: the engine
// reads the bytes and permutes.
#pragma once

#include "checkpoint/safetensors.hpp"
#include "plan/model_config.hpp"
#include "plan/module_tree.hpp"
#include "util/status.hpp"

#include <map>
#include <optional>
#include <string>

namespace sb::hf {

struct WeightTensor {
    std::string file;            // the .safetensors file that holds it
    std::uint64_t dataStart = 0; // that file's data section
    ckpt::SafetensorsEntry entry; // its name there, dtype, shape, byte range
    int ropeHeads = 0;           // > 0: Hugging Face RoPE rows over this many heads, to permute
};

struct WeightSource {
    bool huggingFace = false;
    std::map<std::string, WeightTensor> tensors; // by the core's parameter path
};

// The core's name of a Hugging Face tensor and the heads of its RoPE rows
// (0: not permuted); nullopt for tensors the core has no parameter for
// (GPT-2's attention-mask buffers, Llama's rotary inv_freq).
struct CoreName {
    std::string path;
    int ropeHeads = 0;
};
std::optional<CoreName> coreNameOf(const std::string& hfName, const ModelConfig& model);

// The heads over which the rows of the core's parameter `corePath` are
// rotated by RoPE, so permuted between the core's interleaved pairs and
// Hugging Face's rotate_half halves: q and k projections (weights and
// Qwen2's biases) over their heads, Qwen3's q/k norm weights as one head;
// 0 for every other parameter.
int ropeHeadsOf(const std::string& corePath, const ModelConfig& model);

// Hugging Face's layout of a row-permuted q/k weight: row r of the result is
// row ropeSourceRow(r) of the core's (and the inverse for the way back).
std::int64_t hfRowOfCoreRow(std::int64_t row, std::int64_t rows, int heads);

// Reads the headers (and the index) of `path`. Errors name the file.
Result<WeightSource> openWeights(const std::string& path, const ModelConfig& model);

// openWeights(), then checks the weights against the plan's model: every
// untied parameter of `tree` has a tensor of its shape and a float dtype
// (F32, BF16, F16), and every Hugging Face tensor is a parameter (one the
// model has no place for would be dropped, and the model trained as
// another). Headers only: the launcher's pre-flight and the core's import.
Result<WeightSource> openWeightsFor(const ModuleTree& tree, const ModelConfig& model, const std::string& path);

} // namespace sb::hf
