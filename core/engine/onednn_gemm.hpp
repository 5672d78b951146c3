// oneDNN's two C products, looked up in the process at run time (LibTorch's
// CPU build loads libdnnl for its own bf16 products): no build dependency and
// no oneDNN headers. Row-major, C = alpha op(A) op(B) + beta C, op 'N' or 'T'.
// PyTorch's wheels link oneDNN privately: there neither is found and the
// callers keep ATen's products.
#pragma once

#include <cstdint>

namespace sb::engine::onednn {

// dnnl_sgemm.
bool haveSgemm();
// dnnl_gemm_bf16bf16f32 (bf16 A and B, fp32 C), only where the CPU multiplies
// bf16 natively (AVX512-BF16: Cooper Lake, Sapphire Rapids, Zen 4); elsewhere
// oneDNN would emulate it, slower than fp32. Two bf16 values multiply exactly
// in fp32, so it computes what sgemm computes on the widened values, in its
// own order of additions.
bool haveGemmBf16();

// Throw std::runtime_error naming oneDNN's status when it fails.
void sgemm(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
           std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc);
void gemmBf16(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
              const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b, std::int64_t ldb, float beta, float* c,
              std::int64_t ldc);

} // namespace sb::engine::onednn
