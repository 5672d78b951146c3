#include "causal_attention.hpp"

#include "attention_bf16.hpp"
#include "attention_blocks.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sb::engine {

namespace {

using namespace attention;

// Head h of batch b of t as the products read or write it.
template <typename T> Rows<const T> reading(const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    return {rowsOf<T>(t, b, h), static_cast<int>(t.stride(1))};
}
template <typename T> Rows<T> writing(const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    return {rowsOf<T>(t, b, h), static_cast<int>(t.stride(1))};
}

// One head (fp32 or double): softmax(q k^T * scale + causal mask) v into out,
// and the probabilities into probs (S x S) when backward needs them, else
// into scratch rows (min(kBlock, S) x S).
template <typename T>
void headForward(Rows<const T> q, Rows<const T> k, Rows<const T> v, Rows<T> out, T* probs, T* scratch, int S, int hd,
                 T scale)
{
    for (int r0 = 0; r0 < S; r0 += kBlock) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m; // keys 0..n-1
        T* p = probs ? probs + static_cast<std::int64_t>(r0) * S : scratch;
        gemm<T>()(kRowMajor, kNoTrans, kTrans, m, n, hd, scale, q.row(r0), q.ld, k.p, k.ld, 0, p, S);
        // Zeros to S, not n: the saved probabilities are then fully defined.
        causalSoftmax(p, S, r0, m, probs ? S : n);
        gemm<T>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, p, S, v.p, v.ld, 0, out.row(r0), out.ld);
    }
}

// One query head's dq, and its terms of dk and dv, from its saved
// probabilities, block by block as in forward. The last block is done first:
// it reaches every key, so unless accumulate it initialises dk and dv (beta 0).
template <typename T>
void headBackward(Rows<const T> q, Rows<const T> k, Rows<const T> v, const T* probs, Rows<const T> dout, Rows<T> dq,
                  Rows<T> dk, Rows<T> dv, T* ds, bool accumulate, int S, int hd, T scale)
{
    bool first = !accumulate;
    for (int r0 = (S - 1) / kBlock * kBlock; r0 >= 0; r0 -= kBlock, first = false) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m;
        const T beta = first ? 0 : 1;
        const T* p = probs + static_cast<std::int64_t>(r0) * S;
        // dV[0:n] += P^T dO; dP = dO V^T; dS; dQ = dS K; dK[0:n] += dS^T Q (scale folded into dS).
        gemm<T>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, p, S, dout.row(r0), dout.ld, beta, dv.p, dv.ld);
        gemm<T>()(kRowMajor, kNoTrans, kTrans, m, n, hd, 1, dout.row(r0), dout.ld, v.p, v.ld, 0, ds, n);
        softmaxBackward(p, S, ds, n, r0, m, n, scale);
        gemm<T>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, ds, n, k.p, k.ld, 0, dq.row(r0), dq.ld);
        gemm<T>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, ds, n, q.row(r0), q.ld, beta, dk.p, dk.ld);
    }
}

// Every (batch, query head) of out ([B, S, H, hd] view of the [B, S, H * hd]
// result), and the probabilities ([B, H, S, S]) when backward needs them.
template <typename T>
void attentionForward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                      const torch::Tensor& heads, T* probs)
{
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.H, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> scratch(probs ? 0 : static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.H, h = i % d.H, g = h / d.group();
            headForward<T>(reading<T>(q, b, h), reading<T>(k, b, g), reading<T>(v, b, g), writing<T>(heads, b, h),
                           probs ? probs + i * d.S * d.S : nullptr, scratch.data(), S, hd, static_cast<T>(scale));
        }
    });
}

// dq, dk, dv: one task per (batch, key/value head); the query heads that
// share it add into its dk and dv in turn.
template <typename T>
void attentionBackward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const T* probs,
                       const torch::Tensor& dout, double scale, const torch::Tensor& dq, const torch::Tensor& dk,
                       const torch::Tensor& dv)
{
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.KV, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> ds(static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.KV, g = i % d.KV;
            for (std::int64_t r = 0; r < d.group(); ++r) {
                const std::int64_t h = g * d.group() + r;
                headBackward<T>(reading<T>(q, b, h), reading<T>(k, b, g), reading<T>(v, b, g),
                                probs + (b * d.H + h) * d.S * d.S, reading<T>(dout, b, h), writing<T>(dq, b, h),
                                writing<T>(dk, b, g), writing<T>(dv, b, g), ds.data(), r > 0, S, hd,
                                static_cast<T>(scale));
            }
        }
    });
}

// The probabilities' type: fp32 for bf16 (as PyTorch's fused kernels keep them).
torch::ScalarType probabilityType(const torch::Tensor& q)
{
    return q.scalar_type() == torch::kBFloat16 ? torch::kFloat : q.scalar_type();
}

// out: [B, S, H, hd]; probs [B, H, S, S] in probabilityType, or undefined.
void runForward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                const torch::Tensor& out, const torch::Tensor& probs)
{
    if (q.scalar_type() == torch::kBFloat16)
        return forwardBf16(q, k, v, scale, out, probs.defined() ? probs.data_ptr<float>() : nullptr);
    AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "causalAttention", [&] {
        attentionForward<scalar_t>(q, k, v, scale, out, probs.defined() ? probs.data_ptr<scalar_t>() : nullptr);
    });
}

class CausalAttentionFn : public torch::autograd::Function<CausalAttentionFn> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& qIn, const torch::Tensor& kIn,
                                 const torch::Tensor& vIn, double scale)
    {
        const torch::Tensor q = rowMajor(qIn), k = rowMajor(kIn), v = rowMajor(vIn);
        const Shape d = shapeOf(q, k);
        auto out = torch::empty({d.B, d.S, d.H * d.hd}, q.options());
        auto probs = torch::empty({d.B, d.H, d.S, d.S}, q.options().dtype(probabilityType(q)));
        runForward(q, k, v, scale, out.view({d.B, d.S, d.H, d.hd}), probs);
        ctx->save_for_backward({q, k, v, probs});
        ctx->saved_data["scale"] = scale;
        return out;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &q = saved[0], &k = saved[1], &v = saved[2], &probs = saved[3];
        const double scale = ctx->saved_data["scale"].toDouble();
        const Shape d = shapeOf(q, k);
        const torch::Tensor dout = grads[0].to(q.scalar_type()).reshape({d.B, d.S, d.H, d.hd}).contiguous();
        auto dq = torch::empty({d.B, d.S, d.H, d.hd}, q.options());
        auto dk = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        auto dv = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        if (q.scalar_type() == torch::kBFloat16)
            backwardBf16(q, k, v, probs.data_ptr<float>(), dout, scale, dq, dk, dv);
        else
            AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "causalAttentionBackward", [&] {
                attentionBackward<scalar_t>(q, k, v, probs.data_ptr<scalar_t>(), dout, scale, dq, dk, dv);
            });
        return {dq, dk, dv, torch::Tensor()};
    }
};

} // namespace

bool referenceAttentionForced() { return forcedToReference("SB_ATTENTION"); }

bool fusedAttentionApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    if (referenceAttentionForced() || q.numel() == 0 || k.numel() == 0) return false;
    const auto type = q.scalar_type();
    const bool single = type == torch::kFloat || type == torch::kBFloat16; // bf16 computes in fp32
    if (single ? !attention::gemm<float>() : type == torch::kDouble ? !attention::gemm<double>() : true) return false;
    for (const torch::Tensor* t : {&q, &k, &v})
        if (!t->device().is_cpu() || t->scalar_type() != type || t->dim() != 4) return false;
    return q.size(2) % k.size(2) == 0 && k.sizes() == v.sizes() && q.size(0) == k.size(0) && q.size(1) == k.size(1) &&
           q.size(3) == k.size(3) && q.size(1) <= INT32_MAX && q.size(3) <= INT32_MAX;
}

torch::Tensor causalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale)
{
    const bool needsGrad =
        torch::GradMode::is_enabled() && (q.requires_grad() || k.requires_grad() || v.requires_grad());
    if (needsGrad) return CausalAttentionFn::apply(q, k, v, scale);
    // Inference: no probabilities kept, a block of scratch rows per task instead.
    const torch::Tensor qr = rowMajor(q), kr = rowMajor(k), vr = rowMajor(v);
    const Shape d = shapeOf(qr, kr);
    auto out = torch::empty({d.B, d.S, d.H * d.hd}, qr.options());
    runForward(qr, kr, vr, scale, out.view({d.B, d.S, d.H, d.hd}), torch::Tensor());
    return out;
}

} // namespace sb::engine
