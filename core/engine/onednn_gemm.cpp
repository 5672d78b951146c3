#include "onednn_gemm.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace sb::engine::onednn {

namespace {

// dnnl.h's signatures; both return dnnl_status_t (0: success).
using Sgemm = int (*)(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                      const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                      std::int64_t ldc);
using GemmBf16 = int (*)(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                         const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b, std::int64_t ldb, float beta,
                         float* c, std::int64_t ldc);

Sgemm sgemmFn()
{
    static const auto fn = reinterpret_cast<Sgemm>(dlsym(RTLD_DEFAULT, "dnnl_sgemm"));
    return fn;
}

GemmBf16 gemmBf16Fn()
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

void check(int status, const char* what)
{
    if (status != 0) throw std::runtime_error(std::string("oneDNN's ") + what + " failed (status " + std::to_string(status) + ")");
}

} // namespace

bool haveSgemm() { return sgemmFn() != nullptr; }

bool haveGemmBf16() { return gemmBf16Fn() != nullptr; }

void sgemm(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
           std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc)
{
    check(sgemmFn()(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc), "sgemm");
}

void gemmBf16(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
              const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b, std::int64_t ldb, float beta, float* c,
              std::int64_t ldc)
{
    check(gemmBf16Fn()(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc), "bf16 product");
}

} // namespace sb::engine::onednn
