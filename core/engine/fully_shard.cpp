#include "fully_shard.hpp"

#include "torch_dtype.hpp"

#include "checkpointing.hpp"
#include "device.hpp"
#include "param_init.hpp"

#include <cstdio>
#include <cstdlib>

#include <torch/csrc/autograd/engine.h>

#include <algorithm>
#include <chrono>
#include <set>

namespace sb::engine {

namespace {

FullyShard* gActive = nullptr;

// SB_MEMORY_TRACE=1: the allocator's bytes at every unit boundary on stderr,
// the measured counterpart of the estimator's step timeline.
const bool kTrace = std::getenv("SB_MEMORY_TRACE") != nullptr;

void trace(const char* phase, int unit)
{
    if (!kTrace) return;
    const MemoryStats s = deviceMemoryStats();
    std::fprintf(stderr, "mem %-13s unit %3d current %12llu peak %12llu\n", phase, unit,
                 static_cast<unsigned long long>(s.current), static_cast<unsigned long long>(s.peak));
}

} // namespace

FullyShard* FullyShard::active() { return gActive; }

FullyShard::FullyShard(TransformerModel& model, const Plan& plan, const ResolvedPlan& resolved, DeviceMesh& mesh)
    : model_(model), mesh_(mesh)
{
    const ModuleTree& tree = model.tree();
    unitOfModule_.assign(tree.modules().size(), -1);
    for (std::size_t u = 0; u < resolved.units.size(); ++u) {
        unitOfModule_[static_cast<std::size_t>(resolved.units[u].module)] = static_cast<int>(u);
        units_.push_back(std::make_unique<ShardedUnit>(tree, resolved.units[u], static_cast<int>(u), mesh));
    }
    // Every rank builds its reshard groups in the same order.
    std::set<int> reshardGroups;
    for (const ResolvedUnit& ru : resolved.units)
        if (ru.reshardGroup > 0) reshardGroups.insert(ru.reshardGroup);
    for (int k : reshardGroups) mesh.addReshardGroup(k);
    // Shared memory for the largest unit's collectives (a same-host shard group on the CPU).
    std::size_t gatherBytes = 0, reduceBytes = 0;
    for (const auto& unit : units_) {
        const std::size_t n = static_cast<std::size_t>(unit->shardNumel());
        gatherBytes = std::max(gatherBytes, static_cast<std::size_t>(unit->fullNumel()) *
                                                c10::elementSize(scalarType(unit->policy().paramDtype)));
        reduceBytes = std::max(reduceBytes, n * static_cast<std::size_t>(mesh.shardSize()) *
                                                c10::elementSize(scalarType(unit->policy().reduceDtype)));
    }
    mesh.enableSharedMemory(gatherBytes, reduceBytes);
    // Deferred init: each rank fills only the rows it holds.
    for (auto& unit : units_) {
        for (ShardParam& p : unit->params()) {
            if (p.localRows == 0) continue;
            initParamRows(p.shard.view({p.localRows, p.rowNumel}), tree, p.index,
                          p.rowBegin, plan.training.seed);
        }
        for (ShardParam& p : unit->params()) model.params()[static_cast<std::size_t>(p.index)] = p.full;
    }
    for (std::size_t i = 0; i < tree.params().size(); ++i) {
        const Param& prm = tree.param(static_cast<int>(i));
        if (prm.tiedTo >= 0 || resolved.paramOwner[i] >= 0) continue;
        torch::Tensor full = initFullParam(tree, static_cast<int>(i), plan.training.seed);
        replicated_.push_back(full);
        replicatedIndex_.push_back(static_cast<int>(i));
        model.params()[i] = full;
    }
    for (std::size_t i = 0; i < tree.params().size(); ++i) {
        const Param& prm = tree.param(static_cast<int>(i));
        if (prm.tiedTo >= 0) model.params()[i] = model.params()[static_cast<std::size_t>(prm.tiedTo)];
    }
    postBackwardDone_.assign(units_.size(), false);
    postForwardPos_.assign(units_.size(), -1);
    model.setCaller(this);
    gActive = this;
}

FullyShard::~FullyShard()
{
    model_.setCaller(nullptr);
    if (gActive == this) gActive = nullptr;
}

double FullyShard::takeExposedCommMs()
{
    const double ms = exposedMs_;
    exposedMs_ = 0.0;
    return ms;
}

void FullyShard::preForward(int u)
{
    exposedMs_ += units_[static_cast<std::size_t>(u)]->finishGather();
    if (recomputeDepth_ == 0 && !inBackward_) prefetchAfter(u, true);
}

void FullyShard::prefetchAfter(int u, bool forward)
{
    const ResolvedUnit& pol = units_[static_cast<std::size_t>(u)]->policy();
    const std::vector<int>& explicitList = forward ? pol.forwardPrefetch : pol.backwardPrefetch;
    if (!explicitList.empty()) {
        for (int next : explicitList) units_[static_cast<std::size_t>(next)]->startGather();
        return;
    }
    if (forward) {
        if (u + 1 < static_cast<int>(units_.size())) units_[static_cast<std::size_t>(u + 1)]->startGather();
        return;
    }
    // Backward: the unit before this one in post-forward order runs its backward next.
    const int pos = postForwardPos_[static_cast<std::size_t>(u)];
    if (pos > 0) units_[static_cast<std::size_t>(postForwardOrder_[static_cast<std::size_t>(pos - 1)])]->startGather();
}

torch::Tensor FullyShard::call(int module, const torch::Tensor& x, const ModuleFn& fn)
{
    const int u = unitOfModule_[static_cast<std::size_t>(module)];
    if (u < 0) return fn(x);
    ShardedUnit& unit = *units_[static_cast<std::size_t>(u)];
    const ResolvedUnit& pol = unit.policy();

    preForward(u);
    trace(recomputeDepth_ ? "recompute" : inBackward_ ? "pre-forward*" : "pre-forward", u);
    torch::Tensor in = x;
    const torch::ScalarType pdt = scalarType(pol.paramDtype);
    if (pol.castForwardInputs && torch::isFloatingType(in.scalar_type()) && in.scalar_type() != pdt) in = in.to(pdt);
    if (in.requires_grad() && recomputeDepth_ == 0) in = registerPostBackward(in, u);

    torch::Tensor y;
    const bool checkpoint = pol.checkpoint && u != 0 && recomputeDepth_ == 0 && torch::GradMode::is_enabled();
    if (checkpoint) {
        checkpointFns_[u] = fn;
        y = checkpointUnit(in, unit.params().empty() ? torch::Tensor() : unit.params().front().full, u);
    } else {
        y = fn(in);
    }

    // Post-forward.
    if (recomputeDepth_ == 0) {
        if (!inBackward_) {
            postForwardPos_[static_cast<std::size_t>(u)] = static_cast<int>(postForwardOrder_.size());
            postForwardOrder_.push_back(u);
        }
        if (pol.reshardAfterForward) unit.reshardAfterForward();
    }
    trace("post-forward", u);
    if (pol.outputDtype && torch::isFloatingType(y.scalar_type())) y = y.to(scalarType(*pol.outputDtype));
    if (y.requires_grad()) {
        y.register_hook([this, u](torch::Tensor grad) {
            preBackward(u);
            return grad;
        });
    }
    return y;
}

torch::Tensor FullyShard::runCheckpointed(int unit, const torch::Tensor& x)
{
    return checkpointFns_.at(unit)(x);
}

torch::Tensor FullyShard::recompute(int unit, const torch::Tensor& x)
{
    exposedMs_ += units_[static_cast<std::size_t>(unit)]->finishGather();
    ++recomputeDepth_;
    torch::Tensor y;
    try {
        y = checkpointFns_.at(unit)(x);
    } catch (...) {
        --recomputeDepth_;
        throw;
    }
    --recomputeDepth_;
    return y;
}

void FullyShard::preBackward(int u)
{
    if (!inBackward_) {
        inBackward_ = true;
        // Runs once this backward pass is over, for units whose post-backward hook could not fire.
        torch::autograd::Engine::get_default_engine().queue_callback([this] { finalizeBackward(); });
    }
    exposedMs_ += units_[static_cast<std::size_t>(u)]->finishGather();
    prefetchAfter(u, false);
    trace("pre-backward", u);
}

void FullyShard::postBackward(int u)
{
    if (postBackwardDone_[static_cast<std::size_t>(u)]) return;
    postBackwardDone_[static_cast<std::size_t>(u)] = true;
    trace("post-backward", u);
    ShardedUnit& unit = *units_[static_cast<std::size_t>(u)];
    unit.reshard();
    if (!sync_) unit.accumulateUnshardedGrads();
    if (!sync_ || !unit.hasUnshardedGrads()) return;
    // One reduce-scatter in flight: finish the previous before starting this one.
    if (pendingReduce_ >= 0) exposedMs_ += units_[static_cast<std::size_t>(pendingReduce_)]->finishReduce();
    unit.startReduce();
    pendingReduce_ = u;
}

void FullyShard::finalizeBackward()
{
    for (int u = static_cast<int>(units_.size()) - 1; u >= 0; --u) postBackward(u);
    if (pendingReduce_ >= 0) exposedMs_ += units_[static_cast<std::size_t>(pendingReduce_)]->finishReduce();
    pendingReduce_ = -1;
    endPass();
    std::fill(postBackwardDone_.begin(), postBackwardDone_.end(), false);
    inBackward_ = false;
}

void FullyShard::endForwardOnly() { endPass(); }

void FullyShard::endPass()
{
    // Prefetches that nothing used are completed and dropped.
    for (auto& unit : units_) {
        if (unit->gatherPending()) exposedMs_ += unit->finishGather();
        unit->reshard();
    }
    for (auto& unit : units_) unit->endPass();
    std::fill(postForwardPos_.begin(), postForwardPos_.end(), -1);
    postForwardOrder_.clear();
}

} // namespace sb::engine
