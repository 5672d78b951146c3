// fully_shard for the C++ model: applies the plan's units to a
// TransformerModel (bottom-up ownership from the resolved plan) and runs
// FSDP2's schedule through the model's module boundaries:
//   pre-forward   all-gather (waiting for a prefetch if one is in flight),
//                 cast inputs, register the post-backward hook on the input,
//                 prefetch the next unit (implicit) or the explicit list;
//   post-forward  reshard when reshard_after_forward (to 1/k of the unit
//                 for an integer k: backward gathers within k ranks), cast the output,
//                 register the pre-backward hook on the output;
//   pre-backward  all-gather again, prefetch in reverse post-forward order;
//   post-backward reshard, reduce-scatter (one in flight), or keep the
//                 unsharded gradients when gradient sync is off;
//   final callback: post-backward for units whose hook could not fire.
#pragma once

#include "model.hpp"
#include "process_groups.hpp"
#include "sharded_unit.hpp"

#include "plan/plan.hpp"
#include "plan/resolve.hpp"

#include <map>
#include <memory>
#include <vector>

namespace sb::engine {

class FullyShard final : public ModuleCaller {
public:
    // Materialises only this rank's shards (deterministic per-parameter init)
    // and points the model's parameters at the unsharded tensors.
    FullyShard(TransformerModel& model, const Plan& plan, const ResolvedPlan& resolved, DeviceMesh& mesh);
    ~FullyShard() override;

    torch::Tensor call(int module, const torch::Tensor& x, const ModuleFn& fn) override;

    // set_requires_gradient_sync: false on non-final micro-batches.
    void setRequiresGradientSync(bool sync) { sync_ = sync; }
    std::vector<std::unique_ptr<ShardedUnit>>& units() { return units_; }
    // Parameters a unit excluded with ignored_params: full on every rank, never synchronised (as FSDP2).
    std::vector<torch::Tensor>& replicatedParams() { return replicated_; }
    // Their tree indices, in the same order.
    const std::vector<int>& replicatedIndices() const { return replicatedIndex_; }
    // Milliseconds the training thread waited for collectives since the last call.
    double takeExposedCommMs();

    // Hooks (called from autograd).
    void preBackward(int unit);
    void postBackward(int unit);
    void finalizeBackward();
    // After a forward without gradients (the validation loss): prefetches
    // completed, every unit resharded, the next forward starts afresh.
    void endForwardOnly();
    torch::Tensor runCheckpointed(int unit, const torch::Tensor& x);
    torch::Tensor recompute(int unit, const torch::Tensor& x);

    static FullyShard* active();

private:
    void preForward(int unit);
    void prefetchAfter(int unit, bool forward);
    // The end of a pass: pending prefetches dropped, every unit resharded.
    void endPass();

    TransformerModel& model_;
    DeviceMesh& mesh_;
    std::vector<int> unitOfModule_;
    std::vector<std::unique_ptr<ShardedUnit>> units_;
    std::vector<torch::Tensor> replicated_;
    std::vector<int> replicatedIndex_;
    std::vector<int> postForwardOrder_;
    std::vector<int> postForwardPos_;
    std::vector<bool> postBackwardDone_;
    std::map<int, ModuleFn> checkpointFns_;
    int pendingReduce_ = -1;
    int recomputeDepth_ = 0;
    bool sync_ = true;
    bool inBackward_ = false;
    double exposedMs_ = 0.0;
};

} // namespace sb::engine
