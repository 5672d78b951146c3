// GPT-2 as Hugging Face's GPT2LMHeadModel computes it, on the preset's tree
// (core/plan/model_tree_builders.cpp): learned positions, LayerNorm with bias,
// Conv1D layers (weight [in, out], so Hugging Face checkpoints load as they
// are), a GELU (tanh) MLP, and lm_head tied to wte unless the plan unties it.
#include "model.hpp"

#include "dense_layer.hpp"
#include "gelu.hpp"

#include <stdexcept>

namespace sb::engine {

void TransformerModel::findGpt2Modules()
{
    auto m = [&](const std::string& path) {
        const int i = tree_->findModule(path);
        if (i < 0) throw std::runtime_error("model tree lacks module " + path);
        return i;
    };
    transformer_ = m("transformer");
    tok_ = m("transformer.wte");
    pos_ = m("transformer.wpe");
    norm_ = m("transformer.ln_f");
    output_ = m("lm_head");
    for (std::int64_t i = 0; i < config_.nLayers; ++i) {
        const std::string b = "transformer.h." + std::to_string(i);
        gpt2Blocks_.push_back({m(b), m(b + ".ln_1"), m(b + ".attn"), m(b + ".attn.c_attn"), m(b + ".attn.c_proj"),
                               m(b + ".ln_2"), m(b + ".mlp"), m(b + ".mlp.c_fc"), m(b + ".mlp.c_proj")});
    }
}

torch::Tensor TransformerModel::conv1d(int module, const torch::Tensor& x)
{
    return call(module, x, [this, module](const torch::Tensor& in) {
        const Module& mod = tree_->module(module);
        const torch::Tensor& w = params_[static_cast<std::size_t>(mod.params[0])];
        const torch::Tensor& b = params_[static_cast<std::size_t>(mod.params[1])];
        return denseLayer(in.to(w.scalar_type()), w, b, WeightLayout::InOut);
    });
}

torch::Tensor TransformerModel::gpt2Block(const Gpt2Block& blk, const torch::Tensor& x)
{
    return call(blk.module, x, [this, blk](const torch::Tensor& in) {
        auto attn = call(blk.attn, norm(blk.ln1, in), [this, blk](const torch::Tensor& a) {
            const std::int64_t B = a.size(0), S = a.size(1), D = config_.dim, H = config_.nHeads;
            auto qkv = conv1d(blk.cAttn, a).split(D, 2);
            auto heads = [&](const torch::Tensor& t) { return t.view({B, S, H, D / H}); };
            return conv1d(blk.attnProj, attend(heads(qkv[0]), heads(qkv[1]), heads(qkv[2])));
        });
        auto h = in + attn;
        return h + call(blk.mlp, norm(blk.ln2, h), [this, blk](const torch::Tensor& a) {
                   return conv1d(blk.mlpProj, applyGelu(conv1d(blk.cFc, a), GeluForm::Tanh));
               });
    });
}

torch::Tensor TransformerModel::gpt2Forward(const torch::Tensor& tokens)
{
    const std::int64_t S = tokens.size(1);
    const auto on = torch::TensorOptions().device(tokens.device());
    return call(0, tokens, [this, S, on](const torch::Tensor& ids) {
        auto h = call(transformer_, ids, [this, S, on](const torch::Tensor& t) {
            auto x = embed(tok_, t) + embed(pos_, torch::arange(S, on.dtype(torch::kLong)));
            for (const Gpt2Block& b : gpt2Blocks_) x = gpt2Block(b, x);
            return norm(norm_, x);
        });
        return linear(output_, h);
    });
}

} // namespace sb::engine
