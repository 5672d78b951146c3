#include "model.hpp"

#include "causal_attention.hpp"
#include "dense_layer.hpp"
#include "gelu.hpp"
#include "layer_norm.hpp"
#include "torch_compat.hpp"

#include <cmath>
#include <stdexcept>

namespace sb::engine {

Status TransformerModel::supports(const ModelConfig& c)
{
    if (c.arch == Arch::Tutorial || llamaForm(c.arch) || c.arch == Arch::Gpt2) return {};
    return Status::error(std::string("the training core runs the tutorial Transformer, Llama, Mistral, Qwen2, Qwen3 and GPT-2; this plan's model is \"") +
                         archName(c.arch) + "\" (plan and estimate it, or export it as a PyTorch FSDP2 script)");
}

TransformerModel::TransformerModel(const ModelConfig& config, std::shared_ptr<const ModuleTree> tree)
    : config_(config), tree_(std::move(tree))
{
    params_.resize(tree_->params().size());
    if (config_.arch == Arch::Gpt2) {
        findGpt2Modules();
        return;
    }
    auto m = [&](const std::string& path) {
        const int i = tree_->findModule(path);
        if (i < 0) throw std::runtime_error("model tree lacks module " + path);
        return i;
    };
    tok_ = m("tok_embeddings");
    if (config_.arch == Arch::Tutorial) pos_ = m("pos_embeddings");
    norm_ = m("norm");
    output_ = m("output");
    const bool llama = llamaForm(config_.arch);
    for (std::int64_t i = 0; i < config_.nLayers; ++i) {
        const std::string b = "layers." + std::to_string(i);
        blocks_.push_back({m(b), m(b + ".attention_norm"), m(b + ".attention"), m(b + ".attention.wq"),
                           m(b + ".attention.wk"), m(b + ".attention.wv"), m(b + ".attention.wo"), m(b + ".ffn_norm"),
                           m(b + ".feed_forward"), m(b + ".feed_forward.w1"), m(b + ".feed_forward.w2"),
                           llama ? m(b + ".feed_forward.w3") : -1});
        if (hasQkNorm(config_.arch)) {
            blocks_.back().qNorm = m(b + ".attention.q_norm");
            blocks_.back().kNorm = m(b + ".attention.k_norm");
        }
    }
}

const torch::Tensor& TransformerModel::p(const std::string& path) const
{
    return params_[static_cast<std::size_t>(tree_->findParam(path))];
}

torch::Tensor TransformerModel::call(int module, const torch::Tensor& x, const ModuleFn& fn)
{
    return caller_ ? caller_->call(module, x, fn) : fn(x);
}

torch::Tensor TransformerModel::linear(int module, const torch::Tensor& x)
{
    return call(module, x, [this, module](const torch::Tensor& in) {
        const Module& mod = tree_->module(module);
        const torch::Tensor& w = params_[static_cast<std::size_t>(mod.params[0])];
        torch::Tensor b = mod.params.size() > 1 ? params_[static_cast<std::size_t>(mod.params[1])] : torch::Tensor();
        // Units may compute in different dtypes: follow the weight's.
        return denseLayer(in.to(w.scalar_type()), w, b, WeightLayout::OutIn);
    });
}

torch::Tensor TransformerModel::norm(int module, const torch::Tensor& x)
{
    return call(module, x, [this, module](const torch::Tensor& in) {
        const Module& mod = tree_->module(module);
        const torch::Tensor& w = params_[static_cast<std::size_t>(mod.params[0])];
        const torch::Tensor x2 = in.to(w.scalar_type());
        if (mod.type == "RMSNorm") { // in fp32 whatever the compute dtype, as Meta's Llama and TorchTitan
            const torch::Tensor h = x2.to(torch::kFloat);
            // The mean of the squares as sum / n, which is how ATen computes
            // mean, bit for bit; but mean's backward in LibTorch 1.13 keeps its
            // input (the squares, one more activation of the norm's size) and
            // sum's keeps nothing.
            const torch::Tensor meanSquare = h.pow(2).sum(-1, true) / static_cast<double>(h.size(-1));
            return (h * torch::rsqrt(meanSquare + config_.normEps)).to(x2.scalar_type()) * w;
        }
        // bf16 on the CPU by the core's own pass (layer_norm.hpp).
        return applyLayerNorm(x2, w, params_[static_cast<std::size_t>(mod.params[1])], config_.normEps);
    });
}

namespace {
// Rotates interleaved pairs (x0, x1) of the head dimension, as Llama's complex
// RoPE does, in fp32 (cos and sin are fp32) and back to x's dtype, as Meta's model.
torch::Tensor rope(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin)
{
    auto pairs = x.to(torch::kFloat).unflatten(-1, {-1, 2});
    auto a = pairs.select(-1, 0), b = pairs.select(-1, 1);
    return torch::stack({a * cos - b * sin, a * sin + b * cos}, -1).flatten(-2).to(x.scalar_type());
}

// Llama 3.1's RoPE scaling of the inverse frequencies (fp32), as
// transformers' _compute_llama3_parameters: long wavelengths divided by the
// factor, short ones kept, those between interpolated.
torch::Tensor llama3Scaled(const torch::Tensor& inv, const RopeScaling& r)
{
    const double oldLen = static_cast<double>(r.originalMaxPositions);
    const double lowWavelen = oldLen / r.lowFreqFactor, highWavelen = oldLen / r.highFreqFactor;
    const torch::Tensor wavelen = 2 * M_PI / inv;
    const torch::Tensor scaled = torch::where(wavelen > lowWavelen, inv / r.factor, inv);
    const torch::Tensor smooth = (oldLen / wavelen - r.lowFreqFactor) / (r.highFreqFactor - r.lowFreqFactor);
    const torch::Tensor smoothed = (1 - smooth) * scaled / r.factor + smooth * scaled;
    return torch::where(wavelen.ge(highWavelen).logical_and(wavelen.le(lowWavelen)), smoothed, scaled);
}
} // namespace

torch::Tensor TransformerModel::attention(const Block& blk, const torch::Tensor& x)
{
    return call(blk.attn, x, [this, &blk](const torch::Tensor& in) {
        const std::int64_t B = in.size(0), S = in.size(1);
        const std::int64_t H = config_.nHeads, KV = config_.nKvHeads, hd = config_.headDim();
        auto q = linear(blk.wq, in).view({B, S, H, hd});
        auto k = linear(blk.wk, in).view({B, S, KV, hd});
        auto v = linear(blk.wv, in).view({B, S, KV, hd});
        if (blk.qNorm >= 0) { // Qwen3: each head's q and k normalised over hd, before RoPE
            q = norm(blk.qNorm, q);
            k = norm(blk.kNorm, k);
        }
        if (llamaForm(config_.arch)) {
            q = rope(q, ropeCos_, ropeSin_);
            k = rope(k, ropeCos_, ropeSin_);
        }
        return linear(blk.wo, attend(q, k, v));
    });
}

torch::Tensor TransformerModel::attend(const torch::Tensor& qIn, const torch::Tensor& kIn, const torch::Tensor& vIn) const
{
    const std::int64_t B = qIn.size(0), S = qIn.size(1), H = qIn.size(2), KV = kIn.size(2), hd = qIn.size(3);
    const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
    if (fusedAttentionApplies(qIn, kIn, vIn)) return causalAttention(qIn, kIn, vIn, scale);
    auto q = qIn.transpose(1, 2), k = kIn.transpose(1, 2), v = vIn.transpose(1, 2);
    if (KV != H) {
        k = k.repeat_interleave(H / KV, 1);
        v = v.repeat_interleave(H / KV, 1);
    }
    // On CUDA with LibTorch 2.x, ATen's fused kernels (as the exported
    // script's F.scaled_dot_product_attention): no [B, H, S, S] tensors.
    if (kHaveFusedSdpa && q.is_cuda() && !referenceAttentionForced())
        return fusedCausalSdpa(q, k, v).transpose(1, 2).reshape({B, S, H * hd});
    auto scores = torch::matmul(q, k.transpose(-2, -1)) * scale;
    scores = scores.masked_fill(causalMask_, -std::numeric_limits<float>::infinity());
    // Softmax in fp32, so its backward uses fp32 probabilities (Meta's model).
    auto probs = torch::softmax(scores.to(torch::kFloat), -1).to(v.scalar_type());
    return torch::matmul(probs, v).transpose(1, 2).reshape({B, S, H * hd});
}

torch::Tensor TransformerModel::embed(int module, const torch::Tensor& ids)
{
    return call(module, ids, [this, module](const torch::Tensor& t) {
        return torch::embedding(params_[static_cast<std::size_t>(tree_->module(module).params[0])], t);
    });
}

torch::Tensor TransformerModel::feedForward(const Block& blk, const torch::Tensor& x)
{
    return call(blk.ff, x, [this, &blk](const torch::Tensor& in) {
        if (blk.w3 >= 0) return linear(blk.w2, torch::silu(linear(blk.w1, in)) * linear(blk.w3, in));
        return linear(blk.w2, applyGelu(linear(blk.w1, in)));
    });
}

torch::Tensor TransformerModel::block(const Block& blk, const torch::Tensor& x)
{
    return call(blk.module, x, [this, &blk](const torch::Tensor& in) {
        auto h = in + attention(blk, norm(blk.attnNorm, in));
        return h + feedForward(blk, norm(blk.ffnNorm, h));
    });
}

torch::Tensor TransformerModel::forward(const torch::Tensor& tokens)
{
    const std::int64_t S = tokens.size(1);
    const auto on = torch::TensorOptions().device(tokens.device()); // the model follows its inputs' device
    causalMask_ = torch::ones({S, S}, on.dtype(torch::kBool)).triu(1);
    if (llamaForm(config_.arch)) {
        const std::int64_t hd = config_.headDim();
        auto inv = torch::pow(config_.ropeTheta, -torch::arange(0, hd, 2, on.dtype(torch::kFloat)) / static_cast<double>(hd));
        if (config_.ropeScaling.llama3) inv = llama3Scaled(inv, config_.ropeScaling);
        auto angles = torch::outer(torch::arange(S, on.dtype(torch::kFloat)), inv).view({1, S, 1, hd / 2});
        ropeCos_ = angles.cos();
        ropeSin_ = angles.sin();
    }
    if (config_.arch == Arch::Gpt2) return gpt2Forward(tokens);
    return call(0, tokens, [this, S, on](const torch::Tensor& ids) {
        auto h = embed(tok_, ids);
        if (pos_ >= 0) h = h + embed(pos_, torch::arange(S, on.dtype(torch::kLong)));
        for (const Block& b : blocks_) h = block(b, h);
        return linear(output_, norm(norm_, h));
    });
}

} // namespace sb::engine
