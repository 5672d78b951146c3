// A plan applied to a module tree: which unit owns which parameter (bottom-up,
// as fully_shard does), the forward order of units, and each unit's policy
// with defaults made concrete. The estimator and the engine both read this.
#pragma once

#include "module_tree.hpp"
#include "plan.hpp"

#include <optional>
#include <vector>

namespace sb {

struct ResolvedUnit {
    int policy = -1;             // index into Plan::units
    int module = -1;             // module index in the tree
    int parent = -1;             // enclosing unit, -1 for the root
    std::vector<int> children;   // nested units, in forward order
    std::vector<int> params;     // owned parameters (tied aliases excluded)
    std::int64_t numel = 0;      // sum of owned parameter elements
    // Concrete policy.
    bool reshardAfterForward = true;
    int reshardGroup = 0;        // k for an integer reshard (k < shard group), else 0
    DType paramDtype = DType::F32;
    DType reduceDtype = DType::F32;
    std::optional<DType> outputDtype;
    bool castForwardInputs = true;
    bool offload = false;
    bool checkpoint = false;
    std::vector<int> forwardPrefetch;  // unit indices
    std::vector<int> backwardPrefetch;
};

struct ResolvedPlan {
    std::vector<ResolvedUnit> units; // forward (pre-)order; units[0] is the root
    std::vector<int> paramOwner;     // per parameter: owning unit, -1 if ignored (replicated)
    std::vector<int> moduleUnit;     // per module: innermost unit whose subtree holds it
    bool valid = false;
};

// Never fails: problems are appended (validatePlan reports them with paths);
// unknown modules and the like are skipped.
ResolvedPlan resolvePlan(const Plan& plan, const ModuleTree& tree, Problems* problems = nullptr);

} // namespace sb
