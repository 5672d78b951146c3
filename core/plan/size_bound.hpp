// An upper bound of every byte count the memory estimator derives from a
// plan. The estimator counts bytes in 64-bit integers; validation refuses a
// plan whose bound passes kMaxModelledBytes, so a plan that validates never
// overflows there (docs/robustness.md). The bound is computed in long double,
// which no plan can overflow.
#pragma once

#include "plan.hpp"

namespace sb {

// 2^62 bytes (4 EiB) per rank: far above any device, below 2^63 with room
// for the estimator's differences of sums.
inline constexpr long double kMaxModelledBytes = 4611686018427387904.0L;

// A generous bound: every memory category of every unit and module summed,
// at 8 bytes per element. Needs the tree the plan's model builds.
struct ByteBound {
    long double params = 0;      // parameter state, gathered copies, gradients, buffers
    long double activations = 0; // activations, logits and loss, tokens
    long double total() const { return params + activations; }
    bool modelled() const { return total() <= kMaxModelledBytes; }
};
ByteBound planByteBound(const Plan& plan, const ModuleTree& tree);

} // namespace sb
