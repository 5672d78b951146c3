// bf16 <-> fp32 over raw spans, for the core's own CPU kernels (GELU, layer
// norm, attention): a bf16 is the high half of a float; narrowing rounds to nearest even
// and keeps NaN quiet, as c10::BFloat16 does. Integer arithmetic, which
// vectorises where a float bit cast next to 16-bit loads does not.
#pragma once

#include <c10/util/BFloat16.h>

#include <cstdint>
#include <cstring>

// Built for AVX-512, AVX2 and baseline x86-64 where GCC allows it; the loader
// picks the best. Plain inline helpers called from such a function are
// inlined into each clone, so each clone gets its own vectorised copy.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SB_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SB_VECTOR_CLONES
#endif

namespace sb::engine {

void widenSpan(const std::uint16_t* h, float* f, std::int64_t n);
// Where the CPU has AVX512-BF16 (Cooper Lake, Sapphire Rapids, Zen 4) its
// conversion instruction, else narrowSpanPortable; the same bits either way.
void narrowSpan(const float* f, std::uint16_t* h, std::int64_t n);
void narrowSpanPortable(const float* f, std::uint16_t* h, std::int64_t n);

// A tensor's bf16 elements as the raw 16-bit values the spans take.
inline const std::uint16_t* bitsOf(const c10::BFloat16* p) { return reinterpret_cast<const std::uint16_t*>(p); }
inline std::uint16_t* bitsOf(c10::BFloat16* p) { return reinterpret_cast<std::uint16_t*>(p); }

// The bf16 nearest to the float with bits u: ties to even, NaN a quiet NaN.
inline std::uint16_t narrowBits(std::uint32_t u)
{
    const auto rounded = static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? std::uint16_t{0x7FC0} : rounded;
}

// The bf16 nearest to f, as a float.
inline float roundedToBf16(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    u = static_cast<std::uint32_t>(narrowBits(u)) << 16;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

} // namespace sb::engine
