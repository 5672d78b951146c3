// Linear and GPT-2's Conv1D layers for fp32 CPU tensors as one autograd
// function whose three products (forward, input gradient, weight gradient)
// run in oneDNN's sgemm, which LibTorch's CPU build already loads for its bf16
// products. On the bench model's shapes it measured 2-9 % faster than the
// OpenBLAS kernels ATen's fp32 products call, 6 % over a step's products
// (docs/performance.md, "Dense layers"), and these products are most of a
// CPU step. Keeps what
// ATen's addmm keeps for backward (input and weight; the estimator's count
// is unchanged). bf16 layers, where PyTorch's F.linear is one addmm (2-D or
// contiguous 3-D inputs), go to dense_bf16.hpp (oneDNN's matmul primitive)
// where ATen's bf16 products are oneDNN's (AVX512 BW/VL/DQ), and elsewhere
// to the same sgemm in fp32 blocks, each result rounded once (LibTorch
// 1.13's own bf16 gemm there is a scalar loop that accumulates Conv1D's
// x W in bf16). Where the process has no dnnl_sgemm (PyTorch's wheels link
// oneDNN privately, and use MKL) or the build no oneDNN headers, for other
// dtypes, shapes and devices, and with SB_LINEAR=reference, the layer is
// ATen's linear (as PyTorch's F.linear calls it: one product with the bias
// on contiguous inputs, rounded once in bf16) or addmm.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// How the weight is stored: nn.Linear's [out, in], or Conv1D's [in, out].
enum class WeightLayout { OutIn, InOut };

// SB_LINEAR=reference: ATen's products everywhere (for A/B measurements).
bool referenceLinearForced();

// Whether the process has oneDNN's sgemm (looked up once).
bool haveDnnlSgemm();

// x [..., in] times the weight (transposed for OutIn) plus the bias (may be
// undefined), with autograd; [..., out].
torch::Tensor denseLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout);

} // namespace sb::engine
