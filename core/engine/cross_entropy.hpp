// The training loss, mean cross-entropy of the logits against the next tokens,
// for fp32 and bf16 CPU logits as one autograd function: forward one pass over
// each row (max, sum of exponentials, the target's term), keeping the logits
// as they are and two floats a row; backward one pass writing the gradient in
// the logits' dtype. The ATen route it replaces cast bf16 logits to fp32,
// kept that copy and log-softmax's fp32 output (8 bytes a logit beside the
// bf16 ones), and in backward wrote nll's zeroed fp32 gradient, log-softmax's
// and the cast's: five passes over [tokens, vocab] a step where this makes
// two, and at the loss 2 bytes a bf16 logit kept where that kept 10
// (docs/performance.md, "Cross-entropy"; docs/memory-model.md).
// Arithmetic as PyTorch's log_softmax then nll_loss in fp32: log p = (x - max)
// - log(sum exp(x - max)); the mean in double; the gradient
// (softmax - onehot) * g / N computed in fp32 and rounded once to the logits'
// dtype. Other devices and dtypes, and SB_CROSS_ENTROPY=reference, take that
// ATen route.
#pragma once

#include <torch/torch.h>

namespace sb::engine {

// SB_CROSS_ENTROPY=reference: ATen's log_softmax and nll_loss (for A/B
// measurements, and as a way back should this pass ever misbehave).
bool referenceCrossEntropyForced();

// mean_i -log_softmax(logits)[i, targets[i]] in fp32, with autograd. logits
// [..., V] (the output layer's, in its dtype), targets of the same leading
// shape, int64 in [0, V): a target outside throws c10::Error naming it and its
// row. Pass the only reference to the logits (the output layer's result
// itself): the ATen route then frees the low-precision logits once cast, as
// the cast right after the output layer did.
torch::Tensor crossEntropyLoss(torch::Tensor logits, const torch::Tensor& targets);

} // namespace sb::engine
