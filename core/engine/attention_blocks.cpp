#include "attention_blocks.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sb::engine::attention {

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

torch::Tensor rowMajor(const torch::Tensor& t)
{
    return t.stride(3) == 1 && t.stride(1) >= t.size(3) && t.stride(1) <= INT32_MAX ? t : t.contiguous();
}

namespace {

// Clones for the vector widths (exp vectorised through glibc's libmvec, this
// file being built with fast math).
template <typename T>
__attribute__((target_clones("avx512f", "avx2", "default"))) void softmaxRows(T* s, std::int64_t ld, std::int64_t first,
                                                                              std::int64_t m, std::int64_t n, T* inverseSums)
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
        if (inverseSums)
            inverseSums[i] = inv;
        else
            for (std::int64_t j = 0; j < valid; ++j) row[j] *= inv;
        for (std::int64_t j = valid; j < n; ++j) row[j] = 0;
    }
}

template <typename T>
__attribute__((target_clones("avx512f", "avx2", "default"))) void softmaxGradRows(const T* p, std::int64_t ldp, T* dp,
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

} // namespace

void causalSoftmax(float* s, std::int64_t ld, std::int64_t first, std::int64_t m, std::int64_t n, float* inverseSums)
{
    softmaxRows<float>(s, ld, first, m, n, inverseSums);
}
void causalSoftmax(double* s, std::int64_t ld, std::int64_t first, std::int64_t m, std::int64_t n, double* inverseSums)
{
    softmaxRows<double>(s, ld, first, m, n, inverseSums);
}

void softmaxBackward(const float* p, std::int64_t ldp, float* dp, std::int64_t ldd, std::int64_t first,
                     std::int64_t m, std::int64_t n, float scale)
{
    softmaxGradRows<float>(p, ldp, dp, ldd, first, m, n, scale);
}
void softmaxBackward(const double* p, std::int64_t ldp, double* dp, std::int64_t ldd, std::int64_t first,
                     std::int64_t m, std::int64_t n, double scale)
{
    softmaxGradRows<double>(p, ldp, dp, ldd, first, m, n, scale);
}

} // namespace sb::engine::attention
