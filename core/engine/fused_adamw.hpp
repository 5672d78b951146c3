// AdamW that computes what LibTorch's torch::optim::AdamW computes, with the
// same per-parameter state (step, exp_avg, exp_avg_sq in state(), keyed by the
// TensorImpl), so checkpoints read and write it unchanged; but each fp32
// parameter on the CPU is updated in one vectorised pass over its parameter,
// gradient and moments, where LibTorch runs eight tensor ops (and a temporary)
// per parameter. The global-norm clipping factor is folded into that pass
// instead of a separate multiplication of every gradient. fp32 parameters on
// a GPU (LibTorch 2.1 or later) go through ATen's fused AdamW kernel, one
// launch per parameter group, which divides the gradients by the inverse of
// the clipping factor in place; parameters of other dtypes, or on a GPU with
// an older LibTorch, take LibTorch's op sequence.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

class FusedAdamW final : public torch::optim::AdamW {
public:
    using torch::optim::AdamW::AdamW;

    // The next step() uses every gradient multiplied by `scale` (float, as a
    // gradient's mul_ by the clipping factor computes it); the gradients
    // themselves are left as they are. Reset to 1 after each step.
    void setGradScale(float scale) { gradScale_ = scale; }

    torch::Tensor step(LossClosure closure = nullptr) override;

private:
    float gradScale_ = 1.0f;
};

// The sum of the squares of t's elements, accumulated in double: a sharded
// gradient's share of the global norm. A contiguous fp32 tensor on the CPU
// (sumsSquaresInPlace) is read once in place, where widening a copy to
// double, squaring it and summing wrote and re-read twice its size in double
// every step; others take those tensor ops (and a GPU's caller had better
// keep the sum on the device than wait for each tensor's).
bool sumsSquaresInPlace(const torch::Tensor& t);
double sumOfSquares(const torch::Tensor& t);

// The factor clip_grad_norm_ multiplies every gradient by, computed as it does
// in fp32 (max_norm / (total_norm + 1e-6), at most 1), from the global norm.
// Returns the factor; `norm` receives the total norm.
float clipFactor(const std::vector<torch::Tensor>& params, double maxNorm, double& norm);

} // namespace sb::engine
