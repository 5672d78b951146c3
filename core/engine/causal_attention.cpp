#include "causal_attention.hpp"

#include <ATen/Parallel.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace sb::engine {

namespace {

// cblas_sgemm of the BLAS LibTorch already loaded (OpenBLAS in Debian's),
// looked up at run time: no build dependency, and a LibTorch whose BLAS is
// hidden inside it (MKL in PyTorch's wheels) keeps the composed ops.
enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
using Sgemm = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha, const float* a, int lda,
                       const float* b, int ldb, float beta, float* c, int ldc);

Sgemm sgemm()
{
    static const Sgemm fn = reinterpret_cast<Sgemm>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
    return fn;
}

bool forcedReference()
{
    static const bool on = [] {
        const char* v = std::getenv("SB_ATTENTION");
        return v && std::string(v) == "reference";
    }();
    return on;
}

// Row i of s (S x S, scores already scaled) becomes its causal softmax:
// probabilities over keys 0..i, zeros after. Clones for the vector widths
// (exp vectorised through glibc's libmvec, this file being built with fast math).
__attribute__((target_clones("avx512f", "avx2", "default"))) void causalSoftmax(float* s, std::int64_t S)
{
    for (std::int64_t i = 0; i < S; ++i) {
        float* row = s + i * S;
        const std::int64_t n = i + 1;
        float m = row[0];
        for (std::int64_t j = 1; j < n; ++j) m = std::max(m, row[j]);
        float sum = 0.f;
        for (std::int64_t j = 0; j < n; ++j) {
            row[j] = std::exp(row[j] - m);
            sum += row[j];
        }
        const float inv = 1.f / sum;
        for (std::int64_t j = 0; j < n; ++j) row[j] *= inv;
        for (std::int64_t j = n; j < S; ++j) row[j] = 0.f;
    }
}

// dS = P * (dP - rowsum(dP * P)) * scale, in place in dp; P is zero above the
// diagonal, so is dS.
__attribute__((target_clones("avx512f", "avx2", "default"))) void softmaxBackward(const float* p, float* dp, std::int64_t S,
                                                                                  float scale)
{
    for (std::int64_t i = 0; i < S; ++i) {
        const float* pr = p + i * S;
        float* dr = dp + i * S;
        const std::int64_t n = i + 1;
        float dot = 0.f;
        for (std::int64_t j = 0; j < n; ++j) dot += pr[j] * dr[j];
        for (std::int64_t j = 0; j < n; ++j) dr[j] = pr[j] * (dr[j] - dot) * scale;
        for (std::int64_t j = n; j < S; ++j) dr[j] = 0.f;
    }
}

struct Shape {
    std::int64_t B, S, H, KV, hd;
    std::int64_t group() const { return H / KV; }
};

Shape shapeOf(const torch::Tensor& q, const torch::Tensor& k)
{
    return {q.size(0), q.size(1), q.size(2), k.size(2), q.size(3)};
}

// Rows of head h of batch b in a [B, S, heads, hd] tensor (last dim contiguous).
const float* rowsOf(const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    return t.data_ptr<float>() + b * t.stride(0) + h * t.stride(2);
}
float* rowsOf(torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    return t.data_ptr<float>() + b * t.stride(0) + h * t.stride(2);
}
int ld(const torch::Tensor& t) { return static_cast<int>(t.stride(1)); }

// Last dimension contiguous, as the products need.
torch::Tensor rowMajor(const torch::Tensor& t) { return t.stride(3) == 1 ? t : t.contiguous(); }

class CausalAttentionFn : public torch::autograd::Function<CausalAttentionFn> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& qIn, const torch::Tensor& kIn,
                                 const torch::Tensor& vIn, double scale)
    {
        const torch::Tensor q = rowMajor(qIn), k = rowMajor(kIn), v = rowMajor(vIn);
        const Shape d = shapeOf(q, k);
        auto out = torch::empty({d.B, d.S, d.H * d.hd}, q.options());
        auto heads = out.view({d.B, d.S, d.H, d.hd}); // where each head's rows go
        auto probs = torch::empty({d.B, d.H, d.S, d.S}, q.options());
        const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
        at::parallel_for(0, d.B * d.H, 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                const std::int64_t b = i / d.H, h = i % d.H, g = h / d.group();
                float* p = probs.data_ptr<float>() + i * d.S * d.S;
                sgemm()(kRowMajor, kNoTrans, kTrans, S, S, hd, static_cast<float>(scale), rowsOf(q, b, h), ld(q),
                        rowsOf(k, b, g), ld(k), 0.f, p, S);
                causalSoftmax(p, d.S);
                sgemm()(kRowMajor, kNoTrans, kNoTrans, S, hd, S, 1.f, p, S, rowsOf(v, b, g), ld(v), 0.f,
                        rowsOf(heads, b, h), ld(heads));
            }
        });
        ctx->save_for_backward({q, k, v, probs});
        ctx->saved_data["scale"] = scale;
        return out;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &q = saved[0], &k = saved[1], &v = saved[2], &probs = saved[3];
        const float scale = static_cast<float>(ctx->saved_data["scale"].toDouble());
        const Shape d = shapeOf(q, k);
        const torch::Tensor dout = grads[0].reshape({d.B, d.S, d.H, d.hd}).contiguous();
        auto dq = torch::empty({d.B, d.S, d.H, d.hd}, q.options());
        auto dk = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        auto dv = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
        // One task per (batch, key/value head): the query heads that share it
        // add into its dk and dv in turn.
        at::parallel_for(0, d.B * d.KV, 1, [&](std::int64_t begin, std::int64_t end) {
            std::vector<float> ds(static_cast<std::size_t>(d.S * d.S));
            for (std::int64_t i = begin; i < end; ++i) {
                const std::int64_t b = i / d.KV, g = i % d.KV;
                for (std::int64_t r = 0; r < d.group(); ++r) {
                    const std::int64_t h = g * d.group() + r;
                    const float beta = r == 0 ? 0.f : 1.f;
                    const float* p = probs.data_ptr<float>() + (b * d.H + h) * d.S * d.S;
                    const float* go = rowsOf(dout, b, h);
                    // dV += P^T dO; dP = dO V^T; dS; dQ = dS K; dK += dS^T Q (scale folded into dS).
                    sgemm()(kRowMajor, kTrans, kNoTrans, S, hd, S, 1.f, p, S, go, ld(dout), beta, rowsOf(dv, b, g), ld(dv));
                    sgemm()(kRowMajor, kNoTrans, kTrans, S, S, hd, 1.f, go, ld(dout), rowsOf(v, b, g), ld(v), 0.f, ds.data(), S);
                    softmaxBackward(p, ds.data(), d.S, scale);
                    sgemm()(kRowMajor, kNoTrans, kNoTrans, S, hd, S, 1.f, ds.data(), S, rowsOf(k, b, g), ld(k), 0.f,
                            rowsOf(dq, b, h), ld(dq));
                    sgemm()(kRowMajor, kTrans, kNoTrans, S, hd, S, 1.f, ds.data(), S, rowsOf(q, b, h), ld(q), beta,
                            rowsOf(dk, b, g), ld(dk));
                }
            }
        });
        return {dq, dk, dv, torch::Tensor()};
    }
};

} // namespace

bool fusedAttentionApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    if (forcedReference() || !sgemm() || q.numel() == 0 || k.numel() == 0) return false;
    for (const torch::Tensor* t : {&q, &k, &v})
        if (!t->device().is_cpu() || t->scalar_type() != torch::kFloat || t->dim() != 4) return false;
    return q.size(2) % k.size(2) == 0 && k.sizes() == v.sizes() && q.size(0) == k.size(0) && q.size(1) == k.size(1) &&
           q.size(3) == k.size(3);
}

torch::Tensor causalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale)
{
    return CausalAttentionFn::apply(q, k, v, scale);
}

} // namespace sb::engine
