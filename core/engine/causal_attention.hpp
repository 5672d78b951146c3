// Causal self-attention for fp32 (and double) CPU tensors as one autograd function: the
// scores, the masked softmax and the weighted sum of each (batch, head) with
// BLAS products that read q, k and v where the projections left them
// ([B, S, heads, head_dim], rows strided by the heads) and write the output
// straight into the [B, S, H * head_dim] layout the output projection reads.
// The composition it replaces (matmul, scale, masked_fill, softmax, matmul,
// transpose, reshape) copies q, k, v and the output into head-major layout,
// makes four [B, H, S, S] temporaries and runs one batched product over
// 64x64 matrices; PyTorch's eager step does the same, so this is where the
// core does less work than PyTorch on one process (docs/performance.md).
// Queries go in blocks of 32 rows whose products stop at the block's last
// key: the masked upper triangle beyond each block is never computed.
// Keeps what the composition keeps for backward: q, k, v and the
// probabilities [B, H, S, S] (the estimator's count is unchanged). bf16
// keeps the composition: widened to fp32 here it measured 4 % slower at W=2
// than the composition, whose products run in bf16 (oneDNN).
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// SB_ATTENTION=reference: every attention runs the composed ops (matmul,
// masked softmax, matmul), neither this fused CPU path nor ATen's fused
// kernels on CUDA.
bool referenceAttentionForced();

// Whether causalAttention() takes these tensors: fp32 or double, on the CPU, the BLAS
// entry point found in the process, and SB_ATTENTION not "reference".
bool fusedAttentionApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

// q [B, S, H, hd], k and v [B, S, KV, hd] with H a multiple of KV (query head
// h reads key/value head h / (H / KV)); returns softmax(q k^T * scale + causal
// mask) v as [B, S, H * hd]. Without grad mode nothing is kept for backward.
torch::Tensor causalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale);

} // namespace sb::engine
