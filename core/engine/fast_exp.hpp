// exp for the core's own vectorised CPU loops (GELU, cross-entropy): branch-free
// so that GCC vectorises the loops it sits in without fast math, which would
// also drop NaN and infinity handling the callers rely on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sb::engine {

inline float asFloat(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

inline std::uint32_t floatBits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Cephes' expf (a = n ln2 + r, |r| <= ln2 / 2, degree-6 polynomial, within
// 2 ulp), 0 below -87 (where expf would go subnormal) and at most exp(88); NaN
// stays NaN.
inline float expOf(float a)
{
    const bool underflows = a < -87.0f;
    a = std::min(std::max(a, -87.0f), 88.0f);
    constexpr float kRound = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
    float fn = a * 1.44269504088896341f + kRound;
    const std::int32_t n = static_cast<std::int32_t>(floatBits(fn) - floatBits(kRound));
    fn -= kRound;
    float r = a - fn * 0.693359375f;
    r = r - fn * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const float scaled = p * asFloat(static_cast<std::uint32_t>(n + 127) << 23);
    return underflows ? 0.0f : scaled;
}

} // namespace sb::engine
