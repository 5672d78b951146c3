#include "causal_attention.hpp"

#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace sb::engine {

namespace {

// cblas_sgemm/dgemm of the BLAS LibTorch already loaded (OpenBLAS in
// Debian's), looked up at run time: no build dependency. ATen's own
// at::native::cpublas::gemm would do, but Debian's libtorch_cpu does not
// export it (only its non-BLAS fallback, gemm_stub). A LibTorch whose BLAS is
// hidden inside it (MKL in PyTorch's wheels) keeps the composed ops.
enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
template <typename T>
using Gemm = void (*)(int order, int transA, int transB, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
                      int ldb, T beta, T* c, int ldc);

template <typename T> Gemm<T> gemm();
template <> Gemm<float> gemm<float>()
{
    static const auto fn = reinterpret_cast<Gemm<float>>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
    return fn;
}
template <> Gemm<double> gemm<double>()
{
    static const auto fn = reinterpret_cast<Gemm<double>>(dlsym(RTLD_DEFAULT, "cblas_dgemm"));
    return fn;
}

// Queries are taken in blocks of this many rows; a block's scores cover only
// the keys up to its last query, so the products skip much of the masked
// upper triangle (a quarter of their work at S = 64, approaching half for long S)
// while each product stays large enough for the BLAS kernels.
constexpr std::int64_t kBlock = 32;

// Rows first..first+m-1 of the causal softmax, in place in s (m rows of n
// scaled scores, leading dimension ld): row r keeps keys 0..r, the rest of its
// n entries become zero. Clones for the vector widths (exp vectorised through
// glibc's libmvec, this file being built with fast math).
template <typename T>
__attribute__((target_clones("avx512f", "avx2", "default"))) void causalSoftmax(T* s, std::int64_t ld, std::int64_t first,
                                                                                std::int64_t m, std::int64_t n)
{
    for (std::int64_t i = 0; i < m; ++i) {
        T* row = s + i * ld;
        const std::int64_t valid = first + i + 1;
        T mx = row[0];
        for (std::int64_t j = 1; j < valid; ++j) mx = std::max(mx, row[j]);
        T sum = 0;
        for (std::int64_t j = 0; j < valid; ++j) {
            row[j] = std::exp(row[j] - mx);
            sum += row[j];
        }
        const T inv = T(1) / sum;
        for (std::int64_t j = 0; j < valid; ++j) row[j] *= inv;
        for (std::int64_t j = valid; j < n; ++j) row[j] = 0;
    }
}

// dS = P * (dP - rowsum(dP * P)) * scale for the same rows, in place in dp
// (leading dimension ldd; p's is ldp). P is zero after key first + i, so is dS.
template <typename T>
__attribute__((target_clones("avx512f", "avx2", "default"))) void softmaxBackward(const T* p, std::int64_t ldp, T* dp,
                                                                                  std::int64_t ldd, std::int64_t first,
                                                                                  std::int64_t m, std::int64_t n, T scale)
{
    for (std::int64_t i = 0; i < m; ++i) {
        const T* pr = p + i * ldp;
        T* dr = dp + i * ldd;
        const std::int64_t valid = first + i + 1;
        T dot = 0;
        for (std::int64_t j = 0; j < valid; ++j) dot += pr[j] * dr[j];
        for (std::int64_t j = 0; j < valid; ++j) dr[j] = pr[j] * (dr[j] - dot) * scale;
        for (std::int64_t j = valid; j < n; ++j) dr[j] = 0;
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

// Rows of head h of batch b in a [B, S, heads, hd] tensor (last dim contiguous),
// from position `row` on.
template <typename T> T* rowsOf(const torch::Tensor& t, std::int64_t b, std::int64_t h, std::int64_t row = 0)
{
    return t.data_ptr<T>() + b * t.stride(0) + row * t.stride(1) + h * t.stride(2);
}
int ld(const torch::Tensor& t) { return static_cast<int>(t.stride(1)); }

// The layout the products can read: last dim contiguous and positions at
// least a row apart (BLAS rejects a smaller leading dimension, e.g. a
// broadcast); anything else is copied once.
torch::Tensor rowMajor(const torch::Tensor& t)
{
    return t.stride(3) == 1 && t.stride(1) >= t.size(3) && t.stride(1) <= INT32_MAX ? t : t.contiguous();
}

// Writes softmax(q k^T * scale + causal mask) v into out ([B, S, H, hd] view
// of the [B, S, H * hd] result), and the probabilities into probs
// ([B, H, S, S]) when backward needs them, else into scratch rows.
template <typename T>
void attentionForward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, T scale,
                      const torch::Tensor& heads, T* probs)
{
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.H, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> scratch(probs ? 0 : static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.H, h = i % d.H, g = h / d.group();
            for (int r0 = 0; r0 < S; r0 += kBlock) {
                const int m = std::min<int>(kBlock, S - r0), n = r0 + m; // keys 0..n-1
                T* p = probs ? probs + (i * d.S + r0) * d.S : scratch.data();
                gemm<T>()(kRowMajor, kNoTrans, kTrans, m, n, hd, scale, rowsOf<T>(q, b, h, r0), ld(q), rowsOf<T>(k, b, g),
                          ld(k), 0, p, S);
                // Zeros to S, not n: the saved probabilities are then fully defined.
                causalSoftmax<T>(p, S, r0, m, probs ? S : n);
                gemm<T>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, p, S, rowsOf<T>(v, b, g), ld(v), 0,
                          rowsOf<T>(heads, b, h, r0), ld(heads));
            }
        }
    });
}

// dq, dk, dv from the saved probabilities, block by block as in forward. One
// task per (batch, key/value head): the query heads that share it add into
// its dk and dv in turn. The last block is done first: it reaches every key,
// so it initialises dk and dv (beta 0) and nothing needs zeroing.
template <typename T>
void attentionBackward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const T* probs,
                       const torch::Tensor& dout, T scale, const torch::Tensor& dq, const torch::Tensor& dk,
                       const torch::Tensor& dv)
{
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.KV, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> ds(static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.KV, g = i % d.KV;
            bool first = true;
            for (std::int64_t r = 0; r < d.group(); ++r) {
                const std::int64_t h = g * d.group() + r;
                for (int r0 = (S - 1) / kBlock * kBlock; r0 >= 0; r0 -= kBlock, first = false) {
                    const int m = std::min<int>(kBlock, S - r0), n = r0 + m;
                    const T beta = first ? 0 : 1;
                    const T* p = probs + ((b * d.H + h) * d.S + r0) * d.S;
                    const T* go = rowsOf<T>(dout, b, h, r0);
                    // dV[0:n] += P^T dO; dP = dO V^T; dS; dQ = dS K; dK[0:n] += dS^T Q (scale folded into dS).
                    gemm<T>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, p, S, go, ld(dout), beta, rowsOf<T>(dv, b, g), ld(dv));
                    gemm<T>()(kRowMajor, kNoTrans, kTrans, m, n, hd, 1, go, ld(dout), rowsOf<T>(v, b, g), ld(v), 0, ds.data(), n);
                    softmaxBackward<T>(p, S, ds.data(), n, r0, m, n, scale);
                    gemm<T>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, ds.data(), n, rowsOf<T>(k, b, g), ld(k), 0,
                              rowsOf<T>(dq, b, h, r0), ld(dq));
                    gemm<T>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, ds.data(), n, rowsOf<T>(q, b, h, r0), ld(q), beta,
                              rowsOf<T>(dk, b, g), ld(dk));
                }
            }
        }
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
        auto probs = torch::empty({d.B, d.H, d.S, d.S}, q.options());
        AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "causalAttention", [&] {
            attentionForward<scalar_t>(q, k, v, static_cast<scalar_t>(scale), out.view({d.B, d.S, d.H, d.hd}),
                                       probs.data_ptr<scalar_t>());
        });
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
        const torch::Tensor dout = grads[0].reshape({d.B, d.S, d.H, d.hd}).contiguous();
        auto dq = torch::empty({d.B, d.S, d.H, d.hd}, q.options());
        auto dk = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        auto dv = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "causalAttentionBackward", [&] {
            attentionBackward<scalar_t>(q, k, v, probs.data_ptr<scalar_t>(), dout, static_cast<scalar_t>(scale), dq, dk, dv);
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
    if (type == torch::kFloat ? !gemm<float>() : type == torch::kDouble ? !gemm<double>() : true) return false;
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
    AT_DISPATCH_FLOATING_TYPES(qr.scalar_type(), "causalAttention", [&] {
        attentionForward<scalar_t>(qr, kr, vr, static_cast<scalar_t>(scale), out.view({d.B, d.S, d.H, d.hd}), nullptr);
    });
    return out;
}

} // namespace sb::engine
