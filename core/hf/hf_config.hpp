// A Hugging Face model's config.json as a ModelConfig, for
// `shardbench-cli plan --from-hf DIR`: Llama (LlamaForCausalLM) and GPT-2.
// What the core's models cannot compute the same way (another RoPE theta,
// RoPE scaling, another norm epsilon, biases in attention) is refused with a
// message naming the field, rather than planned and trained differently.
#pragma once

#include "plan/model_config.hpp"
#include "util/status.hpp"

#include <string>

namespace sb::hf {

// `path`: a checkpoint folder holding config.json, or the config.json itself.
Result<ModelConfig> modelFromConfig(const std::string& path);

} // namespace sb::hf
