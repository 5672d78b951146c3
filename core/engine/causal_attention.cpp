#include "causal_attention.hpp"

#include "bf16_span.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
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

// oneDNN's bf16 product (dnnl_gemm_bf16bf16f32, row-major like dnnl_sgemm:
// fp32 C = alpha op(A) op(B) + beta C from bf16 A and B, returning 0 on
// success), looked up as cblas_sgemm is. Only where the CPU multiplies bf16
// natively (AVX512-BF16); elsewhere oneDNN would emulate it. Products of two
// bf16 values are exact in fp32, so it computes what sgemm computes on the
// widened values, in its own order of additions, at twice the rate.
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

// Whether this call's bf16 products of two bf16 operands (q k^T, dO v^T) take
// gemmBf16(): where it exists, unless SB_ATTENTION_BF16_GEMM=reference (the
// widened fp32 products throughout; read once a call, for A/B measurements).
bool nativeBf16(const torch::Tensor& q)
{
    return q.scalar_type() == torch::kBFloat16 && gemmBf16() && !forcedToReference("SB_ATTENTION_BF16_GEMM");
}

// p (m x n, leading dimension ldp) = alpha a b^T from the bf16 rows of two heads.
void productBf16(int m, int n, int k, float alpha, const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b,
                 std::int64_t ldb, float* p, int ldp)
{
    const int status = gemmBf16()('N', 'T', m, n, k, alpha, a, lda, b, ldb, 0.0f, p, ldp);
    if (status != 0) throw std::runtime_error("oneDNN's bf16 product failed (status " + std::to_string(status) + ")");
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

// What the products compute in: the tensor's own type, fp32 for bf16.
template <typename T> struct ComputeOf {
    using type = T;
};
template <> struct ComputeOf<at::BFloat16> {
    using type = float;
};
template <typename T> constexpr bool kWidened = std::is_same_v<T, at::BFloat16>;

// A head's rows as the products read them: row r at p + r * ld.
template <typename T> struct Rows {
    T* p;
    int ld;
    T* row(int r) const { return p + static_cast<std::int64_t>(r) * ld; }
};

// Rows of head h of batch b in a [B, S, heads, hd] tensor (last dim contiguous).
template <typename T> T* rowsOf(const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    return t.data_ptr<T>() + b * t.stride(0) + h * t.stride(2);
}
int ld(const torch::Tensor& t) { return static_cast<int>(t.stride(1)); }

// Head h of batch b of t for reading: the tensor's rows, or for bf16 its
// rows widened into buf (S x hd, contiguous).
template <typename T>
Rows<const typename ComputeOf<T>::type> readHead(const torch::Tensor& t, std::int64_t b, std::int64_t h,
                                                 std::vector<float>& buf)
{
    if constexpr (kWidened<T>) {
        const std::int64_t S = t.size(1), hd = t.size(3);
        buf.resize(static_cast<std::size_t>(S * hd));
        const std::uint16_t* src = bitsOf(rowsOf<T>(t, b, h));
        for (std::int64_t r = 0; r < S; ++r) widenSpan(src + r * t.stride(1), buf.data() + r * hd, hd);
        return {buf.data(), static_cast<int>(hd)};
    } else {
        (void)buf;
        return {rowsOf<T>(t, b, h), ld(t)};
    }
}

// Head h of batch b of t for writing: the tensor's rows, or for bf16 buf,
// which storeHead then rounds into the tensor.
template <typename T>
Rows<typename ComputeOf<T>::type> resultHead(const torch::Tensor& t, std::int64_t b, std::int64_t h, std::vector<float>& buf)
{
    if constexpr (kWidened<T>) {
        buf.resize(static_cast<std::size_t>(t.size(1) * t.size(3)));
        return {buf.data(), static_cast<int>(t.size(3))};
    } else {
        (void)buf;
        return {rowsOf<T>(t, b, h), ld(t)};
    }
}

template <typename T>
void storeHead(const std::vector<float>& buf, const torch::Tensor& t, std::int64_t b, std::int64_t h)
{
    if constexpr (kWidened<T>) {
        const std::int64_t S = t.size(1), hd = t.size(3);
        std::uint16_t* dst = bitsOf(rowsOf<T>(t, b, h));
        for (std::int64_t r = 0; r < S; ++r) narrowSpan(buf.data() + r * hd, dst + r * t.stride(1), hd);
    } else {
        (void)buf, (void)t, (void)b, (void)h;
    }
}

// p (m x n, leading dimension ldp) = alpha a[r0, r0 + m) c[0, n)^T for head ha
// of a and head hc of c (batch b): with oneDNN's bf16 product on the bf16 rows
// as they are (native), else in the compute type on aRows and cRows, the
// heads as readHead gave them (unused, and not read, when native).
template <typename T, typename C = typename ComputeOf<T>::type>
auto headProduct(bool native, const torch::Tensor& a, std::int64_t b, std::int64_t ha, Rows<const C> aRows,
                 const torch::Tensor& c, std::int64_t hc, Rows<const C> cRows, C alpha, int k)
{
    return [=, &a, &c](int r0, int m, int n, C* p, int ldp) {
        if constexpr (kWidened<T>) {
            if (native) {
                productBf16(m, n, k, alpha, bitsOf(rowsOf<T>(a, b, ha)) + r0 * a.stride(1), a.stride(1),
                            bitsOf(rowsOf<T>(c, b, hc)), c.stride(1), p, ldp);
                return;
            }
        }
        gemm<C>()(kRowMajor, kNoTrans, kTrans, m, n, k, alpha, aRows.row(r0), aRows.ld, cRows.p, cRows.ld, 0, p, ldp);
    };
}

// The layout the products can read: last dim contiguous and positions at
// least a row apart (BLAS rejects a smaller leading dimension, e.g. a
// broadcast); anything else is copied once.
torch::Tensor rowMajor(const torch::Tensor& t)
{
    return t.stride(3) == 1 && t.stride(1) >= t.size(3) && t.stride(1) <= INT32_MAX ? t : t.contiguous();
}

// One head: softmax(q k^T * scale + causal mask) v into out, and the
// probabilities into probs (S x S) when backward needs them, else into
// scratch rows (min(kBlock, S) x S). scores(r0, m, n, p, ldp) writes
// scale * q[r0, r0 + m) k[0, n)^T into p.
template <typename C, typename Scores>
void headForward(Scores scores, Rows<const C> v, Rows<C> out, C* probs, C* scratch, int S, int hd)
{
    for (int r0 = 0; r0 < S; r0 += kBlock) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m; // keys 0..n-1
        C* p = probs ? probs + static_cast<std::int64_t>(r0) * S : scratch;
        scores(r0, m, n, p, S);
        // Zeros to S, not n: the saved probabilities are then fully defined.
        causalSoftmax<C>(p, S, r0, m, probs ? S : n);
        gemm<C>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, p, S, v.p, v.ld, 0, out.row(r0), out.ld);
    }
}

// One query head's dq, and its terms of dk and dv, from its saved
// probabilities, block by block as in forward; doutVt(r0, m, n, p, ldp)
// writes dO[r0, r0 + m) v[0, n)^T into p. The last block is done first:
// it reaches every key, so unless accumulate it initialises dk and dv (beta 0).
template <typename C, typename DoutVt>
void headBackward(Rows<const C> q, Rows<const C> k, const C* probs, Rows<const C> dout, DoutVt doutVt, Rows<C> dq,
                  Rows<C> dk, Rows<C> dv, C* ds, bool accumulate, int S, int hd, C scale)
{
    bool first = !accumulate;
    for (int r0 = (S - 1) / kBlock * kBlock; r0 >= 0; r0 -= kBlock, first = false) {
        const int m = std::min<int>(kBlock, S - r0), n = r0 + m;
        const C beta = first ? 0 : 1;
        const C* p = probs + static_cast<std::int64_t>(r0) * S;
        // dV[0:n] += P^T dO; dP = dO V^T; dS; dQ = dS K; dK[0:n] += dS^T Q (scale folded into dS).
        gemm<C>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, p, S, dout.row(r0), dout.ld, beta, dv.p, dv.ld);
        doutVt(r0, m, n, ds, n);
        softmaxBackward<C>(p, S, ds, n, r0, m, n, scale);
        gemm<C>()(kRowMajor, kNoTrans, kNoTrans, m, hd, n, 1, ds, n, k.p, k.ld, 0, dq.row(r0), dq.ld);
        gemm<C>()(kRowMajor, kTrans, kNoTrans, n, hd, m, 1, ds, n, q.row(r0), q.ld, beta, dk.p, dk.ld);
    }
}

// Every (batch, query head) of out ([B, S, H, hd] view of the [B, S, H * hd]
// result), and the probabilities ([B, H, S, S], in the compute type) when
// backward needs them.
template <typename T>
void attentionForward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                      const torch::Tensor& heads, typename ComputeOf<T>::type* probs)
{
    const bool native = nativeBf16(q); // q k^T from q and k as they are
    using C = typename ComputeOf<T>::type;
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    at::parallel_for(0, d.B * d.H, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<C> scratch(probs ? 0 : static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        std::vector<float> qb, kb, vb, ob;
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.H, h = i % d.H, g = h / d.group();
            const Rows<const C> qr = native ? Rows<const C>{} : readHead<T>(q, b, h, qb);
            const Rows<const C> kr = native ? Rows<const C>{} : readHead<T>(k, b, g, kb);
            headForward<C>(headProduct<T>(native, q, b, h, qr, k, g, kr, static_cast<C>(scale), hd), readHead<T>(v, b, g, vb),
                           resultHead<T>(heads, b, h, ob), probs ? probs + i * d.S * d.S : nullptr, scratch.data(), S, hd);
            storeHead<T>(ob, heads, b, h);
        }
    });
}

// acc = bf16(acc + bf16(head)), the first head's bf16(head): how PyTorch sums
// the gradients of a bf16 repeat_interleave (index_add_ in head order).
void addRoundedBf16(const std::vector<float>& head, std::vector<float>& acc, bool first)
{
    for (std::size_t i = 0; i < head.size(); ++i)
        acc[i] = first ? roundedToBf16(head[i]) : roundedToBf16(acc[i] + roundedToBf16(head[i]));
}

// dq, dk, dv: one task per (batch, key/value head); the query heads that
// share it add into its dk and dv in turn. In bf16 each query head's share is
// rounded and the shares summed in bf16, as the exported model's
// repeat_interleave before scaled_dot_product_attention does in PyTorch (so
// that the core and the exported script agree to the printed digits).
template <typename T>
void attentionBackward(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                       const typename ComputeOf<T>::type* probs, const torch::Tensor& dout, double scale,
                       const torch::Tensor& dq, const torch::Tensor& dk, const torch::Tensor& dv)
{
    using C = typename ComputeOf<T>::type;
    const Shape d = shapeOf(q, k);
    const int S = static_cast<int>(d.S), hd = static_cast<int>(d.hd);
    const bool native = nativeBf16(q); // dO v^T from dO and v as they are (v is not widened)
    at::parallel_for(0, d.B * d.KV, 1, [&](std::int64_t begin, std::int64_t end) {
        std::vector<C> ds(static_cast<std::size_t>(std::min(kBlock, d.S) * d.S));
        std::vector<float> qb, kb, vb, gb, dqb, dkb, dvb, headDk, headDv;
        const bool bf16Sums = kWidened<T> && d.group() > 1;
        if (bf16Sums) {
            headDk.resize(static_cast<std::size_t>(d.S * d.hd));
            headDv.resize(headDk.size());
        }
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t b = i / d.KV, g = i % d.KV;
            const Rows<const C> kr = readHead<T>(k, b, g, kb);
            const Rows<const C> vr = native ? Rows<const C>{} : readHead<T>(v, b, g, vb);
            const Rows<C> dkr = resultHead<T>(dk, b, g, dkb), dvr = resultHead<T>(dv, b, g, dvb);
            for (std::int64_t r = 0; r < d.group(); ++r) {
                const std::int64_t h = g * d.group() + r;
                Rows<C> hk = dkr, hv = dvr;
                if constexpr (kWidened<T>)
                    if (bf16Sums) hk = {headDk.data(), hd}, hv = {headDv.data(), hd};
                const Rows<const C> doutr = readHead<T>(dout, b, h, gb);
                headBackward<C>(readHead<T>(q, b, h, qb), kr, probs + (b * d.H + h) * d.S * d.S, doutr,
                                headProduct<T>(native, dout, b, h, doutr, v, g, vr, C{1}, hd), resultHead<T>(dq, b, h, dqb),
                                hk, hv, ds.data(), r > 0 && !bf16Sums, S, hd, static_cast<C>(scale));
                storeHead<T>(dqb, dq, b, h);
                if (bf16Sums) {
                    addRoundedBf16(headDk, dkb, r == 0);
                    addRoundedBf16(headDv, dvb, r == 0);
                }
            }
            storeHead<T>(dkb, dk, b, g);
            storeHead<T>(dvb, dv, b, g);
        }
    });
}

// The probabilities' type: fp32 for bf16 (as the composition's softmax).
torch::ScalarType computeType(const torch::Tensor& q)
{
    return q.scalar_type() == torch::kBFloat16 ? torch::kFloat : q.scalar_type();
}

#define SB_DISPATCH_ATTENTION(type, name, ...) AT_DISPATCH_FLOATING_TYPES_AND(at::kBFloat16, type, name, __VA_ARGS__)

class CausalAttentionFn : public torch::autograd::Function<CausalAttentionFn> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& qIn, const torch::Tensor& kIn,
                                 const torch::Tensor& vIn, double scale)
    {
        const torch::Tensor q = rowMajor(qIn), k = rowMajor(kIn), v = rowMajor(vIn);
        const Shape d = shapeOf(q, k);
        auto out = torch::empty({d.B, d.S, d.H * d.hd}, q.options());
        auto probs = torch::empty({d.B, d.H, d.S, d.S}, q.options().dtype(computeType(q)));
        SB_DISPATCH_ATTENTION(q.scalar_type(), "causalAttention", [&] {
            using C = typename ComputeOf<scalar_t>::type;
            attentionForward<scalar_t>(q, k, v, scale, out.view({d.B, d.S, d.H, d.hd}), probs.data_ptr<C>());
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
        const torch::Tensor dout = grads[0].to(q.scalar_type()).reshape({d.B, d.S, d.H, d.hd}).contiguous();
        auto dq = torch::empty({d.B, d.S, d.H, d.hd}, q.options());
        auto dk = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        auto dv = torch::empty({d.B, d.S, d.KV, d.hd}, q.options());
        SB_DISPATCH_ATTENTION(q.scalar_type(), "causalAttentionBackward", [&] {
            using C = typename ComputeOf<scalar_t>::type;
            attentionBackward<scalar_t>(q, k, v, probs.data_ptr<C>(), dout, scale, dq, dk, dv);
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
    if (single ? !gemm<float>() : type == torch::kDouble ? !gemm<double>() : true) return false;
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
    SB_DISPATCH_ATTENTION(qr.scalar_type(), "causalAttention", [&] {
        attentionForward<scalar_t>(qr, kr, vr, scale, out.view({d.B, d.S, d.H, d.hd}), nullptr);
    });
    return out;
}

} // namespace sb::engine
