// The models of the training core as plain single-device code: the FSDP2
// tutorial Transformer, a Llama-style variant (RMSNorm, SwiGLU, RoPE,
// grouped-query attention) and GPT-2 as Hugging Face names it (model_gpt2.cpp). Parameters are named exactly as the plan's
// ModuleTree names them; every module boundary goes through `call`, where a
// sharding layer (fully_shard.hpp) can hook in. Without hooks it is an
// ordinary unsharded model.
#pragma once

#include "plan/model_config.hpp"
#include "util/status.hpp"

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sb::engine {

// A module body. It may be kept and run again in backward (activation
// checkpointing), so it captures by value or what outlives the forward.
using ModuleFn = std::function<torch::Tensor(const torch::Tensor&)>;

// Where sharding hooks in: runs module `module` on `x` through `fn`.
class ModuleCaller {
public:
    virtual ~ModuleCaller() = default;
    virtual torch::Tensor call(int module, const torch::Tensor& x, const ModuleFn& fn) = 0;
};

class TransformerModel {
public:
    // Refused, with why, for architectures the core cannot run.
    static Status supports(const ModelConfig& config);

    TransformerModel(const ModelConfig& config, std::shared_ptr<const ModuleTree> tree);

    const ModuleTree& tree() const { return *tree_; }
    // One tensor per tree parameter (a tied parameter shares its target's tensor).
    std::vector<torch::Tensor>& params() { return params_; }
    void setCaller(ModuleCaller* caller) { caller_ = caller; }

    // tokens: [B, S] int64 -> logits [B, S, vocab] in the output layer's dtype
    // (crossEntropyLoss() computes in fp32).
    torch::Tensor forward(const torch::Tensor& tokens);

private:
    struct Block {
        int module, attnNorm, attn, wq, wk, wv, wo, ffnNorm, ff, w1, w2, w3;
        int qNorm = -1, kNorm = -1; // Qwen3's per-head norms

    };
    struct Gpt2Block {
        int module, ln1, attn, cAttn, attnProj, ln2, mlp, cFc, mlpProj;
    };
    torch::Tensor call(int module, const torch::Tensor& x, const ModuleFn& fn);
    const torch::Tensor& p(const std::string& path) const;
    torch::Tensor norm(int module, const torch::Tensor& x);
    torch::Tensor linear(int module, const torch::Tensor& x);
    torch::Tensor attention(const Block& b, const torch::Tensor& x);
    torch::Tensor feedForward(const Block& b, const torch::Tensor& x);
    torch::Tensor block(const Block& b, const torch::Tensor& x);
    // Causal attention of q [B, S, H, hd] and k, v [B, S, KV, hd] (query head h
    // reads key/value head h / (H / KV)), softmax in fp32 -> [B, S, H * hd]:
    // causal_attention.hpp's one function where it applies (fp32 on the CPU),
    // else the composed ops.
    torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) const;
    torch::Tensor embed(int module, const torch::Tensor& ids);
    // GPT-2 (model_gpt2.cpp): Conv1D layers hold their weight as [in, out].
    void findGpt2Modules();
    torch::Tensor conv1d(int module, const torch::Tensor& x);
    torch::Tensor gpt2Block(const Gpt2Block& b, const torch::Tensor& x);
    torch::Tensor gpt2Forward(const torch::Tensor& tokens);

    ModelConfig config_;
    std::shared_ptr<const ModuleTree> tree_;
    std::vector<torch::Tensor> params_;
    std::vector<Block> blocks_;
    std::vector<Gpt2Block> gpt2Blocks_;
    int tok_ = -1, pos_ = -1, norm_ = -1, output_ = -1;
    int transformer_ = -1; // GPT-2's "transformer" (everything but lm_head)
    ModuleCaller* caller_ = nullptr;
    // Per-forward constants (not parameters).
    torch::Tensor causalMask_, ropeCos_, ropeSin_;
};

} // namespace sb::engine
