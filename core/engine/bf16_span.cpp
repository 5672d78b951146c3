#include "bf16_span.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define SB_HAVE_BF16_CONVERT 1
#endif

namespace sb::engine {

namespace {
using AliasedBits = std::uint32_t __attribute__((may_alias));
}

SB_VECTOR_CLONES void widenSpan(const std::uint16_t* __restrict h, float* __restrict f, std::int64_t n)
{
    auto* bits = reinterpret_cast<AliasedBits*>(f);
    for (std::int64_t i = 0; i < n; ++i) bits[i] = static_cast<std::uint32_t>(h[i]) << 16;
}

SB_VECTOR_CLONES void narrowSpanPortable(const float* __restrict f, std::uint16_t* __restrict h, std::int64_t n)
{
    const auto* bits = reinterpret_cast<const AliasedBits*>(f);
    for (std::int64_t i = 0; i < n; ++i) h[i] = narrowBits(bits[i]);
}

#ifdef SB_HAVE_BF16_CONVERT
namespace {

// AVX512-BF16's conversion rounds to nearest even, 16 floats an instruction,
// as narrowBits does, except that it flushes subnormal inputs to zero and
// keeps a NaN's payload: a block holding either takes narrowBits.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) void narrowSpanBf16Isa(const float* f, std::uint16_t* h,
                                                                                       std::int64_t n)
{
    const __m512i exponent = _mm512_set1_epi32(0x7F800000), mantissa = _mm512_set1_epi32(0x007FFFFF),
                  magnitude = _mm512_set1_epi32(0x7FFFFFFF), zero = _mm512_setzero_si512();
    const auto* bits = reinterpret_cast<const AliasedBits*>(f);
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 v = _mm512_loadu_ps(f + i);
        const __m512i u = _mm512_castps_si512(v);
        const __mmask16 subnormal = _mm512_cmpeq_epi32_mask(_mm512_and_si512(u, exponent), zero) &
                                    _mm512_cmpneq_epi32_mask(_mm512_and_si512(u, mantissa), zero);
        const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, magnitude), exponent);
        if ((subnormal | nan) != 0) {
            for (std::int64_t k = i; k < i + 16; ++k) h[k] = narrowBits(bits[k]);
            continue;
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + i), reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v)));
    }
    for (; i < n; ++i) h[i] = narrowBits(bits[i]);
}

const bool kBf16Isa = __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl");

} // namespace
#endif

void narrowSpan(const float* f, std::uint16_t* h, std::int64_t n)
{
#ifdef SB_HAVE_BF16_CONVERT
    if (kBf16Isa) return narrowSpanBf16Isa(f, h, n);
#endif
    narrowSpanPortable(f, h, n);
}

} // namespace sb::engine
