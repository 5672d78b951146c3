#include "activation_model.hpp"

#include <algorithm>

namespace sb {

namespace {

using u64 = std::uint64_t;

bool isNorm(const std::string& type) { return type == "LayerNorm" || type == "RMSNorm"; }

// Width of the output of a leaf module with parameters (imported models).
std::int64_t outputWidth(const ModuleTree& tree, const Module& m)
{
    for (int p : m.params) {
        const Param& prm = tree.param(p);
        if (prm.shape.size() != 2) continue;
        if (m.type == "Conv1D") return prm.shape[1];
        return m.type == "Embedding" ? prm.shape[1] : prm.shape[0];
    }
    for (int p : m.params)
        if (tree.param(p).shape.size() == 1) return tree.param(p).shape[0];
    return 0;
}

} // namespace

ActivationCosts activationCosts(const Plan& plan, const ModuleTree& tree, const ResolvedPlan& r)
{
    ActivationCosts c;
    const std::size_t nModules = tree.modules().size();
    c.saved.assign(nModules, 0);
    c.workspace.assign(nModules, 0);
    c.unitInput.assign(r.units.size(), 0);

    const ModelConfig& cfg = plan.model;
    const u64 B = static_cast<u64>(plan.training.microBatch);
    const u64 S = static_cast<u64>(plan.training.seqLen);
    const u64 T = B * S;
    const bool cuda = plan.mesh.device == Device::Cuda;
    c.tokens = 2 * T * 8;

    auto computeBytes = [&](int module) {
        const int unit = r.moduleUnit[static_cast<std::size_t>(module)];
        return dtypeBytes(unit >= 0 ? r.units[static_cast<std::size_t>(unit)].paramDtype : cfg.dtype);
    };

    std::int64_t vocab = cfg.vocabSize;
    // An imported model's width comes from its first embedding (the config's
    // preset sizes do not describe it).
    std::int64_t dimForInputs = cfg.arch == Arch::Imported ? 0 : cfg.dim;

    if (cfg.arch == Arch::Imported) {
        // Generic: every parameterised leaf saves its output; norms also their statistics.
        std::int64_t lastWidth = 0;
        for (std::size_t m = 0; m < nModules; ++m) {
            const Module& mod = tree.module(static_cast<int>(m));
            if (mod.params.empty()) continue;
            const u64 e = computeBytes(static_cast<int>(m));
            const std::int64_t w = outputWidth(tree, mod);
            if (w <= 0) continue;
            c.saved[m] = T * static_cast<u64>(w) * e + (isNorm(mod.type) ? 8 * T : 0);
            c.workspace[m] = 2 * T * static_cast<u64>(w) * e;
            lastWidth = w;
            if (mod.type == "Embedding" && dimForInputs <= 0) dimForInputs = w;
        }
        vocab = lastWidth;
        // The last parameterised module produces the logits: count them there, not twice.
        for (std::size_t m = nModules; m-- > 0;)
            if (!tree.module(static_cast<int>(m)).params.empty()) { c.saved[m] = 0; break; }
        if (dimForInputs <= 0) dimForInputs = 1;
    } else {
        const u64 D = static_cast<u64>(cfg.dim);
        const u64 F = static_cast<u64>(cfg.ffnHidden);
        const u64 H = static_cast<u64>(cfg.nHeads);
        const u64 Dkv = static_cast<u64>(cfg.nKvHeads) * static_cast<u64>(cfg.headDim());
        const u64 Dq = H * static_cast<u64>(cfg.headDim()); // D but where head_dim is explicit (Qwen3)
        const bool llama = llamaForm(cfg.arch);
        bool firstEmbedding = true;
        for (std::size_t m = 0; m < nModules; ++m) {
            const Module& mod = tree.module(static_cast<int>(m));
            const u64 e = computeBytes(static_cast<int>(m));
            const std::string& t = mod.type;
            if (t == "Embedding") {
                // The token embedding keeps its indices; the sum of embeddings is
                // the first block's input, saved by its norm.
                if (firstEmbedding) c.saved[m] = 8 * T + T * D * e;
                firstEmbedding = false;
            } else if (t == "LayerNorm") {
                // Its input and fp32 mean and rstd per row (the CPU's bf16 pass,
                // core/engine/layer_norm.hpp, as ATen's kernels elsewhere).
                c.saved[m] = T * D * e + 8 * T;
                c.workspace[m] = T * D * 4;
            } else if (t == "RMSNorm") {
                // Over the model's width, or (Qwen3's q_norm, k_norm) over each head.
                const u64 width = mod.name == "q_norm" ? Dq : mod.name == "k_norm" ? Dkv : D;
                const u64 rows = T * width / std::max<u64>(1, static_cast<u64>(tree.param(mod.params[0]).numel()));
                // Its input in fp32 (kept by the square), the normalised rows
                // in the compute dtype (kept by the weight's product), 1/rms in fp32.
                c.saved[m] = T * width * (4 + e) + 4 * rows;
                c.workspace[m] = T * width * 4;
            } else if (t == "Attention" || t == "GPT2Attention") {
                const u64 scores = B * H * S * S * e;
                if (cuda) // fused scaled-dot-product attention: q, k, v, output, log-sum-exp
                    c.saved[m] = (2 * T * Dq + 2 * T * Dkv) * e + 4 * B * H * S;
                else      // q, k, v, merged heads, and the softmax probabilities in fp32
                          // (core/engine/causal_attention.hpp; bf16 computes in fp32)
                    c.saved[m] = 4 * T * Dq * e + B * H * S * S * std::max<u64>(e, 4);
                c.workspace[m] = cuda ? 3 * T * Dq * e : 2 * scores + 2 * T * Dq * e;
            } else if (t == "TransformerBlock" || t == "GPT2Block") {
                c.saved[m] = 2 * T * D * e; // residual sum and block output
                c.workspace[m] = T * D * e;
            } else if (t == "FeedForward" || t == "GPT2MLP") {
                c.saved[m] = (llama ? 4 : 2) * T * F * e;
                c.workspace[m] = 2 * T * F * e;
            }
        }
    }

    // What a checkpointed unit keeps: its input activation.
    for (std::size_t u = 0; u < r.units.size(); ++u) {
        const u64 e = dtypeBytes(r.units[u].paramDtype);
        c.unitInput[u] = T * static_cast<u64>(dimForInputs) * e;
    }

    // Loss. On the CPU the core's fused cross-entropy takes fp32 and bf16
    // logits (core/engine/cross_entropy.hpp): it keeps the logits as they are
    // and two floats a row, and backward adds their gradient in the same
    // dtype. Elsewhere ATen's route: the logits in fp32 and log-softmax's fp32
    // output; in backward two fp32 gradients of that size, while half of the
    // forward's are still held. On CUDA a bf16 root's output is cast at once
    // and not kept (measured on an H100 with bf16 and fp32 roots alike,
    // docs/performance-h100.md); on the CPU (LibTorch 1.13) fp16 logits stay
    // alive beside their fp32 copy, and their gradient joins in backward.
    const DType rootDtype = r.units.empty() ? DType::F32 : r.units[0].paramDtype;
    const u64 eRoot = dtypeBytes(rootDtype);
    const u64 V = static_cast<u64>(std::max<std::int64_t>(vocab, 1));
    if (!cuda && (rootDtype == DType::F32 || rootDtype == DType::BF16)) {
        c.logitsForward = T * V * eRoot + 8 * T;
        c.logitsBackward = 2 * T * V * eRoot + 8 * T;
    } else {
        const u64 lowPrecision = cuda || eRoot == 4 ? 0 : eRoot;
        c.logitsForward = T * V * (4 + 4 + lowPrecision);
        c.logitsBackward = c.logitsForward + c.logitsForward / 2;
    }
    // PyTorch 2.x on CUDA allocates the cuBLAS and cuBLASLt workspaces
    // (32 MiB each on Hopper) through its caching allocator: 64 to 66 MiB
    // over the estimate in every plan measured on an H100, small or large.
    if (cuda) c.libraryWorkspace = u64{64} << 20;
    return c;
}

} // namespace sb
