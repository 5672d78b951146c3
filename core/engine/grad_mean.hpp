// The last step of a unit's reduce-scatter on the CPU: this rank's row of
// every rank's contribution summed in rank order, divided by the data-parallel
// size and written to (or added to) the unit's flat sharded gradient, in one
// pass. Summing into a temporary, zeroing the gradient buffer and adding the
// scaled temporary wrote the row three times and read it four.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// Whether meanOfRowsInto() takes `rows` ([W, n] with unit stride along n, or
// [n]; fp32, or bf16 gradients published unwidened) and `out` ([n],
// contiguous, fp32), on the CPU.
bool meansRowsInPlace(const torch::Tensor& rows, const torch::Tensor& out);
// out = (rows[0] + ... + rows[W-1]) * scale, or out += that when `accumulate`;
// the sum rounds as a float sum over dim 0 in rank order, and the product as
// one float multiplication (what sum(0) then add_(sum, scale) into zeros
// computes). bf16 rows are widened exactly first: the same result as a cast to
// fp32 before the collective, from half the bytes.
void meanOfRowsInto(const torch::Tensor& out, const torch::Tensor& rows, float scale, bool accumulate);

} // namespace sb::engine
