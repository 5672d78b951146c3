// What the fused causal attention's two paths share: the fp32/double path
// (causal_attention.cpp) and the bf16 path (attention_bf16.cpp). The BLAS
// entry points LibTorch already loaded, the query blocks, a head's rows in
// the [B, S, heads, hd] layout the projections leave, and the softmax rows.
#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace sb::engine::attention {

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
template <> Gemm<float> gemm<float>();
template <> Gemm<double> gemm<double>();

// Queries are taken in blocks of this many rows; a block's scores cover only
// the keys up to its last query, so the products skip much of the masked
// upper triangle (a quarter of their work at S = 64, approaching half for long S)
// while each product stays large enough for the BLAS kernels.
constexpr std::int64_t kBlock = 32;

struct Shape {
    std::int64_t B, S, H, KV, hd;
    std::int64_t group() const { return H / KV; }
};
inline Shape shapeOf(const torch::Tensor& q, const torch::Tensor& k)
{
    return {q.size(0), q.size(1), q.size(2), k.size(2), q.size(3)};
}

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

// The layout the products can read: last dim contiguous and positions at
// least a row apart (BLAS rejects a smaller leading dimension, e.g. a
// broadcast); anything else is copied once.
torch::Tensor rowMajor(const torch::Tensor& t);

// Rows first..first+m-1 of the causal softmax, in place in s (m rows of n
// scaled scores, leading dimension ld): row r keeps keys 0..r, the rest of its
// n entries become zero. With inverseSums, row i is left as exp(s - max) and
// 1 / its sum goes to inverseSums[i] (the caller normalises); without, the
// rows are normalised here.
void causalSoftmax(float* s, std::int64_t ld, std::int64_t first, std::int64_t m, std::int64_t n,
                   float* inverseSums = nullptr);
void causalSoftmax(double* s, std::int64_t ld, std::int64_t first, std::int64_t m, std::int64_t n,
                   double* inverseSums = nullptr);

// dS = P * (dP - rowsum(dP * P)) * scale for the same rows, in place in dp
// (leading dimension ldd; p's is ldp). P is zero after key first + i, so is dS.
void softmaxBackward(const float* p, std::int64_t ldp, float* dp, std::int64_t ldd, std::int64_t first,
                     std::int64_t m, std::int64_t n, float scale);
void softmaxBackward(const double* p, std::int64_t ldp, double* dp, std::int64_t ldd, std::int64_t first,
                     std::int64_t m, std::int64_t n, double scale);

} // namespace sb::engine::attention
