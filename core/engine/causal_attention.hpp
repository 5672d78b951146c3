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
// composition does. bf16 computes in fp32, as the composition's softmax and
// PyTorch's fused kernels do: each task widens its head's rows of q, k, v (and
// in backward of the output's gradient) into fp32 rows, runs the fp32
// products, and rounds its results once; its probabilities are kept in fp32
// (the composition keeps them in fp32 for softmax's backward and again in bf16
// for the product), and q, k, v in bf16 as they came. The gradients of a
// key/value head shared by several query heads are summed in bf16, each
// head's share rounded first, as PyTorch sums the gradient of the exported
// model's repeat_interleave: the core and the exported script then agree to
// the printed digits (tst_engine_export_script). Where the CPU multiplies
// bf16 natively (AVX512-BF16) the two products of two bf16 operands, q k^T
// and in backward dO v^T, run in oneDNN's bf16 product straight from the
// tensors (exact products, fp32 sums; q and k are then not widened in
// forward, nor v in backward): 1.5 % off the bench model's bf16 pass
// (docs/performance.md). SB_ATTENTION_BF16_GEMM=reference widens instead.
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
