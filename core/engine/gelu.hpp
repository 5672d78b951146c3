// GELU for fp32 and bf16 CPU tensors as one autograd function, forward and
// backward each one vectorised pass: alone on [512, 1024] fp32, backward
// 0.35 ms against LibTorch 1.13's 0.9-1.3, and 2-3 % off the bench model's
// forward and backward (docs/performance.md, "GELU"). The exponential is
// computed once per element for both of erf's factors and for backward's
// density term. Exact (erf) GELU uses the
// Abramowitz-Stegun 7.1.26 erf that ATen's own vectorised CPU erf uses
// (absolute error below 1.5e-7), written as 1 + erf without cancellation on
// the negative side; the tanh approximation is x * sigmoid(2u), which cannot
// overflow. bf16 computes in fp32 and rounds once to nearest even, as ATen's
// bf16 kernel; as bf16 has only 65,536 values, that is two tables per form
// (GELU, and the fp32 slope that backward multiplies dy by), filled on first
// use by the fp32 pass. Keeps its input for backward, as ATen's GeluBackward does (the
// estimator's count is unchanged). Other dtypes, other devices,
// non-contiguous inputs and SB_GELU=reference take torch::gelu.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

enum class GeluForm { Erf, Tanh };

// SB_GELU=reference: torch::gelu everywhere (for A/B measurements, and as a
// way back should this pass ever misbehave).
bool referenceGeluForced();

// GELU of x (with autograd), by this pass where it applies, else torch::gelu.
torch::Tensor applyGelu(const torch::Tensor& x, GeluForm form = GeluForm::Erf);

// The two passes on raw fp32 memory, for the tests: y = gelu(x), and
// dx = dy * gelu'(x). n elements; dx may alias dy.
void geluForwardSpan(const float* x, float* y, std::int64_t n, GeluForm form);
void geluBackwardSpan(const float* x, const float* dy, float* dx, std::int64_t n, GeluForm form);

} // namespace sb::engine
