// Linear and GPT-2's Conv1D layers for fp32 and bf16 CPU tensors as one
// autograd function whose three products (forward, input gradient, weight
// gradient) run in oneDNN's products (onednn_gemm.hpp), which LibTorch's CPU
// build already loads for its own bf16 products. fp32: dnnl_sgemm, 2-9 %
// faster than the OpenBLAS kernels ATen's fp32 products call on the bench
// model's shapes, 6 % over a step's products (docs/performance.md, "Dense
// layers"). bf16, where the CPU has AVX512-BF16: dnnl_gemm_bf16bf16f32 into
// fp32 rows, rounded once into the bf16 result (the bias added before the
// rounding), which is what ATen's bf16 addmm and mm compute, without the
// primitive descriptors, reorders and scratch allocations ATen's oneDNN path
// makes on every call. Keeps what ATen's addmm keeps for backward (input and
// weight; the estimator's count is unchanged). Where the process has no such
// product (PyTorch's wheels link oneDNN privately, and use MKL), for other
// dtypes and devices, and with SB_LINEAR=reference, the layer is ATen's linear
// or addmm.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// How the weight is stored: nn.Linear's [out, in], or Conv1D's [in, out].
enum class WeightLayout { OutIn, InOut };

// SB_LINEAR=reference: ATen's products everywhere (for A/B measurements).
bool referenceLinearForced();

// Whether the layer runs its own products for tensors of this dtype: fp32
// with dnnl_sgemm in the process, bf16 with dnnl_gemm_bf16bf16f32 and a CPU
// that has AVX512-BF16 (looked up once).
bool ownProducts(torch::ScalarType type);

// x [..., in] times the weight (transposed for OutIn) plus the bias (may be
// undefined), with autograd; [..., out].
torch::Tensor denseLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout);

} // namespace sb::engine
