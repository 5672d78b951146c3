#include "attention_bf16.hpp"

#include "attention_blocks.hpp"
#include "bf16_span.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sb::engine::attention {

namespace {

// oneDNN's bf16 product (dnnl_gemm_bf16bf16f32, row-major like dnnl_sgemm:
// fp32 C = alpha op(A) op(B) + beta C from bf16 A and B, returning 0 on
// success), looked up as cblas_sgemm is. Only where the CPU multiplies bf16
// natively (AVX512-BF16); elsewhere oneDNN would emulate it.
using GemmBf16 = int (*)(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                         const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b, std::int64_t ldb, float beta,
                         float* c, std::int64_t ldc);

GemmBf16 gemmBf16()
{
#if defined(__x86_64__) && defined(__GNUC__)
    static const auto fn = __builtin_cpu_supports("avx512bf16")
                               ? reinterpret_cast<GemmBf16>(dlsym(RTLD_DEFAULT, "dnnl_gemm_bf16bf16f32"))
                               : nullptr;
    return fn;
#else
    return nullptr;
#endif
}

// One operand of a product: rows of bf16 values (native products) or of the
// same values widened to fp32; row r at ld * r.
struct Operand {
    const std::uint16_t* h = nullptr;
    const float* f = nullptr;
    std::int64_t ld = 0;
    Operand from(std::int64_t r) const { return {h ? h + r * ld : nullptr, f ? f + r * ld : nullptr, ld}; }
};

// Buffers a task rounds its probabilities and dS into.
struct Rounding {
    std::vector<std::uint16_t> bits;
    std::vector<float> values;
};

// How one call multiplies: oneDNN's bf16 product on bf16 rows (native), or
// the fp32 BLAS product on widened rows.
class Products {
public:
    Products() : native_(gemmBf16() && !forcedToReference("SB_ATTENTION_BF16_GEMM")) {}

    // c (m x n, leading dimension ldc) = alpha op(a) op(b) + beta c, op 'N' or 'T'.
    void operator()(char ta, char tb, int m, int n, int k, float alpha, Operand a, Operand b, float beta, float* c,
                    int ldc) const
    {
        if (native_) {
            const int status = gemmBf16()(ta, tb, m, n, k, alpha, a.h, a.ld, b.h, b.ld, beta, c, ldc);
            if (status != 0) throw std::runtime_error("oneDNN's bf16 product failed (status " + std::to_string(status) + ")");
            return;
        }
        gemm<float>()(kRowMajor, ta == 'T' ? kTrans : kNoTrans, tb == 'T' ? kTrans : kNoTrans, m, n, k, alpha, a.f,
                      static_cast<int>(a.ld), b.f, static_cast<int>(b.ld), beta, c, ldc);
    }

    // Head h of batch b of a [B, S, heads, hd] tensor: its own rows, or
    // widened into buf (S x hd).
    Operand head(const torch::Tensor& t, std::int64_t b, std::int64_t h, std::vector<float>& buf) const
    {
        const std::uint16_t* src = bitsOf(rowsOf<at::BFloat16>(t, b, h));
        if (native_) return {src, nullptr, t.stride(1)};
        const std::int64_t S = t.size(1), hd = t.size(3);
        buf.resize(static_cast<std::size_t>(S * hd));
        for (std::int64_t r = 0; r < S; ++r) widenSpan(src + r * t.stride(1), buf.data() + r * hd, hd);
        return {nullptr, buf.data(), hd};
    }

    // m rows of n fp32 values (leading dimension ld) rounded to bf16.
    Operand rounded(const float* src, std::int64_t ld, int m, int n, Rounding& into) const
    {
        const auto size = static_cast<std::size_t>(m) * n;
        if (native_) {
            into.bits.resize(size);
            for (int i = 0; i < m; ++i) narrowSpan(src + i * ld, into.bits.data() + i * n, n);
            return {into.bits.data(), nullptr, n};
        }
        into.values.resize(size);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) into.values[static_cast<std::size_t>(i) * n + j] = roundedToBf16(src[i * ld + j]);
        return {nullptr, into.values.data(), n};
    }

private:
    bool native_;
};

void scaleRow(float* row, int n, float by)
{
    for (int j = 0; j < n; ++j) row[j] *= by;
}

// One head: out (S x hd, fp32) = softmax(scale q k^T + causal mask) v, and
// the probabilities into probs (S x S) when backward needs them, else into
// scratch rows (min(kBlock, S) x S).
void headForward(const Products& mul, Operand q, Operand k, Operand v, float* out, float* probs, float* scratch,
                 Rounding& rounding, int S, int hd, float scale)
{
    float inverseSums[kBlock];
    for (int r0 = 0; r0 < S; r0 += kBlock) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m; // keys 0..n-1
        float* p = probs ? probs + static_cast<std::int64_t>(r0) * S : scratch;
        float* o = out + static_cast<std::int64_t>(r0) * hd;
        mul('N', 'T', m, n, hd, scale, q.from(r0), k, 0, p, S);
        // exp(s - max), zeros to S when kept (the saved rows fully defined)
        causalSoftmax(p, S, r0, m, probs ? S : n, inverseSums);
        mul('N', 'N', m, hd, n, 1, mul.rounded(p, S, m, n, rounding), v, 0, o, hd);
        for (int i = 0; i < m; ++i) {
            scaleRow(o + static_cast<std::int64_t>(i) * hd, hd, inverseSums[i]);
            if (probs) scaleRow(p + static_cast<std::int64_t>(i) * S, n, inverseSums[i]);
        }
    }
}

// One query head's dq (S x hd, fp32) and its dk and dv (written, not added),
// from its saved probabilities, block by block as in forward. The last block
// goes first: it reaches every key, so it initialises dk and dv (beta 0).
void headBackward(const Products& mul, Operand q, Operand k, Operand v, const float* probs, Operand dout, float* dq,
                  float* dk, float* dv, float* ds, Rounding& rounding, int S, int hd, float scale)
{
    bool first = true;
    for (int r0 = (S - 1) / kBlock * kBlock; r0 >= 0; r0 -= kBlock, first = false) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m;
        const float beta = first ? 0 : 1;
        const float* p = probs + static_cast<std::int64_t>(r0) * S;
        // dV[0:n] += P^T dO; dP = dO V^T; dS; dQ = scale dS K; dK[0:n] += scale dS^T Q.
        mul('T', 'N', n, hd, m, 1, mul.rounded(p, S, m, n, rounding), dout.from(r0), beta, dv, hd);
        mul('N', 'T', m, n, hd, 1, dout.from(r0), v, 0, ds, n);
        softmaxBackward(p, S, ds, n, r0, m, n, 1.0f);
        const Operand dsRounded = mul.rounded(ds, n, m, n, rounding);
        mul('N', 'N', m, hd, n, scale, dsRounded, k, 0, dq + static_cast<std::int64_t>(r0) * hd, hd);
        mul('T', 'N', n, hd, m, scale, dsRounded, q.from(r0), beta, dk, hd);
    }
}

// The S x hd fp32 rows of buf rounded into head h of batch b of t.
void store(const std::vector<float>& buf, const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    const std::int64_t S = t.size(1), hd = t.size(3);
    std::uint16_t* dst = bitsOf(rowsOf<at::BFloat16>(t, b, h));
    for (std::int64_t r = 0; r < S; ++r) narrowSpan(buf.data() + r * hd, dst + r * t.stride(1), hd);
}

// acc = bf16(acc + bf16(head)), the first head's bf16(head): how PyTorch sums
// the gradients of a bf16 repeat_interleave (index_add_ in head order).
void addRoundedBf16(const std::vector<float>& head, std::vector<float>& acc, bool first)
{
    for (std::size_t i = 0; i < head.size(); ++i)
        acc[i] = first ? roundedToBf16(head[i]) : roundedToBf16(acc[i] + roundedToBf16(head[i]));
}

} // namespace

void forwardBf16(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                 const torch::Tensor& out, float* probs)
{
    const Products mul;
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.H, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<float> scratch(probs ? 0 : static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        std::vector<float> qb, kb, vb, ob(static_cast<std::size_t>(d.S * d.hd));
        Rounding rounding;
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.H, h = i % d.H, g = h / d.group();
            headForward(mul, mul.head(q, b, h, qb), mul.head(k, b, g, kb), mul.head(v, b, g, vb), ob.data(),
                        probs ? probs + i * d.S * d.S : nullptr, scratch.data(), rounding, S, hd,
                        static_cast<float>(scale));
            store(ob, out, b, h);
        }
    });
}

void backwardBf16(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const float* probs,
                  const torch::Tensor& dout, double scale, const torch::Tensor& dq, const torch::Tensor& dk,
                  const torch::Tensor& dv)
{
    const Products mul;
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    const auto headSize = static_cast<std::size_t>(d.S * d.hd);
    const bool shared = d.group() > 1; // each query head's share rounded, then summed in bf16
    at::parallel_for(0, d.B * d.KV, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<float> ds(static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        std::vector<float> qb, kb, vb, gb, dqb(headSize), dkb(headSize), dvb(headSize), headDk, headDv;
        if (shared) headDk.resize(headSize), headDv.resize(headSize);
        Rounding rounding;
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.KV, g = i % d.KV;
            const Operand kr = mul.head(k, b, g, kb), vr = mul.head(v, b, g, vb);
            for (std::int64_t r = 0; r < d.group(); ++r) {
                const std::int64_t h = g * d.group() + r;
                headBackward(mul, mul.head(q, b, h, qb), kr, vr, probs + (b * d.H + h) * d.S * d.S,
                             mul.head(dout, b, h, gb), dqb.data(), shared ? headDk.data() : dkb.data(),
                             shared ? headDv.data() : dvb.data(), ds.data(), rounding, S, hd, static_cast<float>(scale));
                store(dqb, dq, b, h);
                if (shared) {
                    addRoundedBf16(headDk, dkb, r == 0);
                    addRoundedBf16(headDv, dvb, r == 0);
                }
            }
            store(dkb, dk, b, g);
            store(dvb, dv, b, g);
        }
    });
}

} // namespace sb::engine::attention
