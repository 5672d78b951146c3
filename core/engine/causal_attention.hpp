// Causal self-attention for fp32, bf16 (and double) CPU tensors as one autograd function: the
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
// Keeps q, k, v and the probabilities [B, H, S, S] for backward, as the
// composition does. bf16 computes as PyTorch 2's fused kernels do
// (attention_bf16.hpp): scores, softmax and gradients in fp32, the products'
// operands in bf16 (the unnormalised probabilities and dS rounded to bf16 for
// theirs), fp32 sums, results rounded once; the probabilities are kept in
// fp32. The gradients of a key/value head shared by several query heads are
// summed in bf16, each head's share rounded first, as PyTorch sums the
// gradient of the exported model's repeat_interleave: the core and the
// exported script then agree to the printed digits (tst_engine_export_script).
// Where the CPU multiplies bf16 natively (AVX512-BF16) every product runs in
// oneDNN's bf16 product straight from the tensors; SB_ATTENTION_BF16_GEMM=
// reference widens them to fp32 instead (the same products, another order of
// additions).
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// SB_ATTENTION=reference: every attention runs the composed ops (matmul,
// masked softmax, matmul), neither this fused CPU path nor ATen's fused
// kernels on CUDA.
bool referenceAttentionForced();

// Whether causalAttention() takes these tensors: fp32, bf16 or double, on the CPU, the BLAS
// entry point found in the process, and SB_ATTENTION not "reference".
bool fusedAttentionApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

// q [B, S, H, hd], k and v [B, S, KV, hd] with H a multiple of KV (query head
// h reads key/value head h / (H / KV)); returns softmax(q k^T * scale + causal
// mask) v as [B, S, H * hd]. Without grad mode nothing is kept for backward.
torch::Tensor causalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale);

} // namespace sb::engine
