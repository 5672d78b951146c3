// Layer norm over the last dimension for bf16 CPU tensors as one autograd
// function, forward and backward each one pass over the rows, reading and
// writing bf16 and computing in fp32. LibTorch 1.13's CPU layer norm has no
// vectorised bf16 kernel (8.6x fp32's time at the bench shape), so the model
// used to cast x, w and b to fp32, normalise and cast back, and backward cast
// each gradient again: 8 copies around every norm (docs/performance.md,
// "bf16 layer norm"). Same arithmetic as that route: statistics in fp32
// (mean, then the mean squared deviation), y = (x - mean) rstd w + b rounded
// once; backward dx = rstd (g - mean(g) - xhat mean(g xhat)) with g = dy w,
// and dw, db summed over rows in fp32 and rounded once. Keeps its bf16 input,
// w and the fp32 mean and rstd per row for backward, as ATen's layer norm does
// (the estimator counts input and statistics). Other dtypes and devices,
// non-contiguous tensors and SB_LAYER_NORM=reference take ATen's layer norm
// (2-byte dtypes on the CPU through fp32, as before).
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// SB_LAYER_NORM=reference: ATen's layer norm (for A/B measurements, and as a
// way back should this pass ever misbehave).
bool referenceLayerNormForced();

// layer_norm(x, [x.size(-1)], w, b, eps) with autograd, by this pass where it
// applies.
torch::Tensor applyLayerNorm(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, double eps);

} // namespace sb::engine
