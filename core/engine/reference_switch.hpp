// The switch each of the core's own CPU kernels has back to ATen's ops:
// VARIABLE=reference (SB_ATTENTION, SB_ATTENTION_BF16_GEMM, SB_GELU, SB_LAYER_NORM,
// SB_CROSS_ENTROPY, SB_LINEAR;
// docs/protocol.md).
#pragma once

#include <cstdlib>
#include <cstring>

namespace sb::engine {

// Read on every call (a getenv per layer), so that a benchmark can switch
// between the paths within one process (tools/bench/attention_ab.cpp).
inline bool forcedToReference(const char* variable)
{
    const char* v = std::getenv(variable);
    return v && std::strcmp(v, "reference") == 0;
}

} // namespace sb::engine
