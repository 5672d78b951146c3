// The fused causal attention for bf16 tensors (causal_attention.hpp's bf16
// half), computed as PyTorch 2's fused CPU kernel (flash attention) does:
// scores, softmax and their gradients in fp32 from bf16 inputs, and every
// product with bf16 operands and fp32 sums. Forward rounds the unnormalised
// probabilities exp(s - max) to bf16 for their product with v and divides by
// the fp32 row sums after it; backward rounds the probabilities for dV = P^T dO
// and dS = P * (dP - rowsum(P * dP)) for dQ = scale dS K and dK = scale dS^T Q.
// Where the CPU multiplies bf16 natively (AVX512-BF16), the products run in
// oneDNN's bf16 product straight from the bf16 tensors and buffers; elsewhere,
// and with SB_ATTENTION_BF16_GEMM=reference, in fp32 on the widened values:
// the same products (two bf16 values multiply exactly in fp32), in another
// order of additions. The probabilities are kept in fp32 for backward.
#pragma once

#include <torch/torch.h>

namespace sb::engine::attention {

// out: [B, S, H, hd] (a view of the [B, S, H * hd] result); probs: [B, H, S, S]
// fp32, or null when nothing is kept for backward.
void forwardBf16(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                 const torch::Tensor& out, float* probs);

// dq [B, S, H, hd], dk and dv [B, S, KV, hd], contiguous bf16; dout as out.
// The gradients of a key/value head shared by several query heads are summed
// in bf16, each head's share rounded first, as PyTorch sums the gradient of
// the exported model's repeat_interleave.
void backwardBf16(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const float* probs,
                  const torch::Tensor& dout, double scale, const torch::Tensor& dq, const torch::Tensor& dk,
                  const torch::Tensor& dv);

} // namespace sb::engine::attention
