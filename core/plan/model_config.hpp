// What model a plan trains: a named preset with editable sizes, or a module
// tree imported from PyTorch. The config builds the ModuleTree every other
// part reads.
#pragma once

#include "../json/json.hpp"
#include "module_tree.hpp"
#include "problem.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

enum class Arch {
    Tutorial, // the FSDP2 tutorial Transformer: learned positions, LayerNorm, GELU MLP
    Gpt2,     // Hugging Face GPT-2 naming, Conv1D weights, tied lm_head
    Llama,    // Llama-3: RMSNorm, SwiGLU, grouped-query attention, RoPE, untied output
    Imported, // any PyTorch model, from scripts/export_module_tree.py
    // Llama's form with Hugging Face's differences:
    Mistral, // none in the weights (Mistral 7B v0.3; a sliding window is refused past it)
    Qwen2,   // bias on the q, k and v projections (Qwen2, Qwen2.5)
    Qwen3    // RMSNorm of each q and k head before RoPE (q_norm, k_norm), explicit head_dim
};

// Llama's decoder: RMSNorm, SwiGLU, grouped-query attention, RoPE, the same
// module tree; Mistral and Qwen add to it (hasQkvBias, hasQkNorm).
inline bool llamaForm(Arch a) { return a == Arch::Llama || a == Arch::Mistral || a == Arch::Qwen2 || a == Arch::Qwen3; }
inline bool hasQkvBias(Arch a) { return a == Arch::Qwen2; }
inline bool hasQkNorm(Arch a) { return a == Arch::Qwen3; }

// Llama 3.1's RoPE scaling (rope_type "llama3" in a Hugging Face config):
// inverse frequencies whose wavelength exceeds originalMaxPositions /
// lowFreqFactor are divided by factor, those under originalMaxPositions /
// highFreqFactor kept, and those between interpolated, as transformers'
// _compute_llama3_parameters does.
struct RopeScaling {
    bool llama3 = false; // off: plain RoPE
    double factor = 8.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    std::int64_t originalMaxPositions = 8192;
    bool operator==(const RopeScaling& o) const
    {
        return llama3 == o.llama3 && factor == o.factor && lowFreqFactor == o.lowFreqFactor && highFreqFactor == o.highFreqFactor &&
               originalMaxPositions == o.originalMaxPositions;
    }
};

struct ModelConfig {
    std::string preset = "transformer";
    Arch arch = Arch::Tutorial;
    std::int64_t vocabSize = 1024;
    std::int64_t dim = 256;
    std::int64_t nLayers = 8;
    std::int64_t nHeads = 4;
    std::int64_t nKvHeads = 4;     // grouped-query attention (Llama); equals nHeads elsewhere
    std::int64_t ffnHidden = 1024; // MLP hidden width
    std::int64_t maxSeqLen = 64;   // learned position table size (Tutorial, GPT-2)
    bool tiedEmbeddings = false;
    double ropeTheta = 500000.0;   // Llama's RoPE base (Llama 3; Llama 2 and most others: 10000)
    RopeScaling ropeScaling;       // Llama 3.1 and later
    std::int64_t explicitHeadDim = 0; // Hugging Face's head_dim where it is not dim / n_heads (Qwen3); 0: dim / n_heads
    double normEps = 1e-5;         // every norm's epsilon (rms_norm_eps; Qwen: 1e-6)
    std::int64_t slidingWindow = 0; // attention window of the source model (Mistral v0.1); 0: none. Not computed:
                                    // a sequence longer than the window is refused
    DType dtype = DType::F32;      // dtype the parameters are created in
    // For Arch::Imported: the exported tree as read, and its source path.
    json::Value importedTree;
    std::string importedFrom;

    std::int64_t headDim() const { return explicitHeadDim > 0 ? explicitHeadDim : nHeads > 0 ? dim / nHeads : 0; }
    // Problems with sizes (paths under `where`), e.g. dim not divisible by heads.
    void validate(const JsonPath& where, Problems& problems) const;
};

struct PresetInfo {
    std::string name;
    std::string description;
};

const std::vector<PresetInfo>& modelPresets();
std::optional<ModelConfig> presetConfig(std::string_view name);
// The "transformer" preset (the FSDP2 tutorial's model) at other sizes, as a
// host probe, a demo or a test trains it: nKvHeads equals `heads`.
ModelConfig tutorialTransformer(std::int64_t vocab, std::int64_t dim, std::int64_t layers, std::int64_t heads,
                                std::int64_t ffnHidden, std::int64_t maxSeqLen);
// Llama 3.1 scaling as Hugging Face's rope_scaling object (rope_type "llama3"),
// which is also the plan's model.rope_scaling.
json::Value ropeScalingJson(const RopeScaling& r);
const char* archName(Arch a);
std::optional<Arch> parseArch(std::string_view s);

// Builds the tree; for an invalid config the result may be partial, so
// validate first. For Arch::Imported it parses importedTree.
std::shared_ptr<const ModuleTree> buildModuleTree(const ModelConfig& config, Problems* problems = nullptr);

} // namespace sb
