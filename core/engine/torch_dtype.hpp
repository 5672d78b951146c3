// The plan's element types as LibTorch scalar types, and the seeded integer
// mixing that initialisation and synthetic data share.
#pragma once

#include "plan/dtype.hpp"

#include <c10/core/ScalarType.h>

#include <cstdint>

namespace sb::engine {

inline c10::ScalarType scalarType(DType t)
{
    switch (t) {
    case DType::F32: return c10::ScalarType::Float;
    case DType::BF16: return c10::ScalarType::BFloat16;
    case DType::F16: return c10::ScalarType::Half;
    case DType::F64: return c10::ScalarType::Double;
    }
    return c10::ScalarType::Float;
}

// SplitMix64: a counter-based mix, so any element or sample can be generated
// on its own, independent of the world size.
inline std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace sb::engine
