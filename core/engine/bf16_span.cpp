#include "bf16_span.hpp"

namespace sb::engine {

namespace {
using AliasedBits = std::uint32_t __attribute__((may_alias));
}

SB_VECTOR_CLONES void widenSpan(const std::uint16_t* __restrict h, float* __restrict f, std::int64_t n)
{
    auto* bits = reinterpret_cast<AliasedBits*>(f);
    for (std::int64_t i = 0; i < n; ++i) bits[i] = static_cast<std::uint32_t>(h[i]) << 16;
}

SB_VECTOR_CLONES void narrowSpan(const float* __restrict f, std::uint16_t* __restrict h, std::int64_t n)
{
    const auto* bits = reinterpret_cast<const AliasedBits*>(f);
    for (std::int64_t i = 0; i < n; ++i) h[i] = narrowBits(bits[i]);
}

} // namespace sb::engine
