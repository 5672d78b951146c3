// Bytes that autograd keeps alive per module during one micro-batch, derived
// from the ops each preset's forward runs (docs/memory-model.md lists them).
#pragma once

#include "../plan/plan.hpp"
#include "../plan/resolve.hpp"

#include <cstdint>
#include <vector>

namespace sb {

struct ActivationCosts {
    std::vector<std::uint64_t> saved;     // per module: tensors saved for backward
    std::vector<std::uint64_t> workspace; // per module: transient gradient buffers in its backward
    std::vector<std::uint64_t> unitInput; // per unit: its forward input (what activation checkpointing keeps)
    std::uint64_t logitsForward = 0;      // the loss's tensors alive at the loss (logits and what it keeps)
    std::uint64_t logitsBackward = 0;     // all of them alive in the loss's backward, gradients included
    std::uint64_t tokens = 0;             // input ids and targets (int64)
    std::uint64_t libraryWorkspace = 0;   // CUDA: the cuBLAS and cuBLASLt workspaces, held from the first product on
};

ActivationCosts activationCosts(const Plan& plan, const ModuleTree& tree, const ResolvedPlan& resolved);

} // namespace sb
