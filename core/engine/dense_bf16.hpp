// The products of bf16 Linear and Conv1D layers on the CPU through oneDNN's
// matmul primitive, created once per shape and kept: forward (with the bias), input gradient
// and weight gradient each one call straight into the primitive, bf16 in and
// out with fp32 accumulation, the bias added before the one rounding. The
// same oneDNN kernels ATen's bf16 addmm and mm reach (the same bits: checked
// by engine_dense against ATen's linear), without ATen's per-call work
// (oneDNN descriptors, primitive lookup, scratch allocation: about 12 us a
// product on the bench model, 147 products a step). The bias gradient is
// ATen's sum over rows, as addmm's backward computes it. Keeps what ATen's
// addmm keeps for backward (input and weight; the estimator's count is
// unchanged); the primitives' scratch memory (at most a few hundred KiB a
// thread) is outside the tracking allocator.
//
// Built where oneDNN's headers are (Debian's libdnnl-dev, the library
// LibTorch's CPU build links) and used on CPUs where ATen's bf16 products
// are oneDNN's; on other CPUs dense_layer.cpp computes the products in fp32
// blocks. Elsewhere (PyTorch's wheels link oneDNN privately), for products
// ATen keeps from oneDNN (m n k at most 16^3) and with SB_LINEAR=reference
// the layer is ATen's linear.
#pragma once

#include "dense_layer.hpp"

#include <torch/torch.h>

#include <cstdint>

namespace sb::engine {

// Whether this build has the oneDNN bf16 layer and this CPU takes it (where
// ATen's bf16 products are oneDNN's: AVX512 BW, VL and DQ).
bool haveDnnlBf16Dense();

// ATen's bf16 products smaller than this (m n k) skip oneDNN; so do these
// layers, to keep ATen's bits.
constexpr std::int64_t kDnnlBf16MinProduct = 16 * 16 * 16;

// The layer's three products, for dense_layer.cpp's autograd function (which
// also takes the bias gradient, ATen's row sum). x [T, in], dy [T, out], w
// [out, in] (OutIn) or [in, out] (InOut), b [out] or undefined: bf16,
// contiguous. y = x W^T + b (or x W + b); dx = dy W (or dy W^T); dW.
torch::Tensor denseBf16Forward(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout);
torch::Tensor denseBf16InputGrad(const torch::Tensor& dy, const torch::Tensor& w, WeightLayout layout);
torch::Tensor denseBf16WeightGrad(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w, WeightLayout layout);

} // namespace sb::engine
