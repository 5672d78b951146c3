#include "estimate.hpp"

#include "activation_model.hpp"
#include "../plan/shard_layout.hpp"
#include "../plan/size_bound.hpp"

#include <algorithm>

namespace sb {

using u64 = std::uint64_t;

const char* memCategoryName(MemCategory c)
{
    switch (c) {
    case MemCategory::ShardedParams: return "sharded_params";
    case MemCategory::ShardedGrads: return "sharded_grads";
    case MemCategory::OptimizerState: return "optimizer_state";
    case MemCategory::UnshardedParams: return "unsharded_params";
    case MemCategory::CommBuffers: return "comm_buffers";
    case MemCategory::UnshardedGrads: return "unsharded_grads";
    case MemCategory::Activations: return "activations";
    case MemCategory::LogitsLoss: return "logits_loss";
    case MemCategory::Other: return "other";
    case MemCategory::Count: break;
    }
    return "?";
}

const char* memCategoryLabel(MemCategory c)
{
    switch (c) {
    case MemCategory::ShardedParams: return "Sharded parameters";
    case MemCategory::ShardedGrads: return "Sharded gradients";
    case MemCategory::OptimizerState: return "Optimizer state";
    case MemCategory::UnshardedParams: return "Unsharded parameters";
    case MemCategory::CommBuffers: return "Communication buffers";
    case MemCategory::UnshardedGrads: return "Unsharded gradients";
    case MemCategory::Activations: return "Activations";
    case MemCategory::LogitsLoss: return "Logits and loss";
    case MemCategory::Other: return "Other";
    case MemCategory::Count: break;
    }
    return "?";
}

const char* stepPhaseName(StepPhase p)
{
    switch (p) {
    case StepPhase::Start: return "start";
    case StepPhase::PreForward: return "pre-forward";
    case StepPhase::PostForward: return "post-forward";
    case StepPhase::Loss: return "loss";
    case StepPhase::PreBackward: return "pre-backward";
    case StepPhase::Backward: return "backward";
    case StepPhase::PostBackward: return "post-backward";
    case StepPhase::Optimizer: return "optimizer";
    }
    return "?";
}

u64 MemBreakdown::total() const
{
    u64 t = 0;
    for (u64 b : bytes) t += b;
    return t;
}

namespace {

struct UnitCost {
    u64 unsharded = 0;     // gathered parameters, param_dtype, padded to the shard group
    u64 shardNumel = 0;    // padded local shard elements
    u64 reduceIn = 0;      // reduce-scatter input in reduce_dtype (the full gradient, padded)
    u64 reduceOut = 0;     // its output: Gloo's all-to-all returns full size, NCCL a shard, shared memory none
    u64 grads = 0;         // unsharded gradients, param_dtype
    u64 shardGrads = 0;    // this rank's sharded gradients on the device (padded), from the unit's reduce to the optimizer step
    u64 saved = 0;         // own activations kept to backward (0 under checkpointing)
    u64 recompute = 0;     // activations rebuilt in backward by a checkpointed unit
    u64 workspace = 0;
    bool underCheckpoint = false; // inside a checkpointed ancestor: nothing saved, nothing own to recompute
};

// Walks one step and records memory at each unit boundary (transient
// categories, the sharded gradients among them; persistent state is added
// per rank afterwards).
class StepWalker {
public:
    StepWalker(const ResolvedPlan& r, const std::vector<UnitCost>& costs, const ActivationCosts& act,
               const Plan& plan, const ModuleTree& tree, bool keep)
        : r_(r), c_(costs), act_(act), plan_(plan), tree_(tree), keep_(keep),
          gathered_(r.units.size(), false), agInFlight_(r.units.size(), false)
    {
    }

    void run()
    {
        const u64 other = act_.tokens + act_.libraryWorkspace; // held through the whole step
        cur_[MemCategory::Other] = other;
        if (plan_.training.gradAccum > 1) // set_requires_gradient_sync(False): grads of earlier micro-batches
            for (const UnitCost& u : c_) cur_[MemCategory::UnshardedGrads] += u.grads;
        point(StepPhase::Start, -1, "start");
        forward(0);
        flushPrefetch();
        cur_[MemCategory::LogitsLoss] = act_.logitsForward;
        point(StepPhase::Loss, -1, "loss");
        cur_[MemCategory::LogitsLoss] = act_.logitsBackward;
        point(StepPhase::Backward, -1, "loss backward");
        cur_[MemCategory::LogitsLoss] = 0;
        for (int u : postOrderReversed()) order_.push_back(u);
        backwardOrderPos_ = 0;
        backward(0);
        finishReduce();
        flushPrefetch();
        u64 maxShard = 0;
        for (const UnitCost& u : c_) maxShard = std::max(maxShard, u.shardNumel);
        cur_[MemCategory::Other] = other + 2 * maxShard * 4; // AdamW's per-parameter temporaries
        point(StepPhase::Optimizer, -1, "optimizer step");
    }

    u64 peakTransient() const { return peak_; }
    int peakIndex() const { return peakIndex_; }
    const MemBreakdown& peakBreakdown() const { return peakMem_; }
    std::vector<TimelinePoint> takeTimeline() { return std::move(points_); }

private:
    const std::string& name(int u) const { return tree_.module(r_.units[static_cast<std::size_t>(u)].module).path; }
    std::string label(const char* what, int u) const
    {
        const std::string& n = name(u);
        return std::string(what) + " " + (n.empty() ? std::string("root") : n);
    }

    void point(StepPhase phase, int unit, std::string text)
    {
        const u64 total = cur_.total();
        if (total > peak_ || count_ == 0) {
            peak_ = total;
            peakIndex_ = count_;
            peakMem_ = cur_;
        }
        ++count_;
        if (keep_) points_.push_back({phase, unit, std::move(text), cur_});
    }

    void gather(int u)
    {
        const UnitCost& c = c_[static_cast<std::size_t>(u)];
        if (gathered_[static_cast<std::size_t>(u)]) return;
        if (!agInFlight_[static_cast<std::size_t>(u)]) cur_[MemCategory::CommBuffers] += c.unsharded;
        agInFlight_[static_cast<std::size_t>(u)] = true;
        cur_[MemCategory::UnshardedParams] += c.unsharded - keptPartial(u);
    }
    void finishGather(int u)
    {
        if (agInFlight_[static_cast<std::size_t>(u)]) cur_[MemCategory::CommBuffers] -= c_[static_cast<std::size_t>(u)].unsharded;
        agInFlight_[static_cast<std::size_t>(u)] = false;
        gathered_[static_cast<std::size_t>(u)] = true;
        partial_.erase(std::remove(partial_.begin(), partial_.end(), u), partial_.end());
    }
    void prefetch(int u)
    {
        if (u < 0 || gathered_[static_cast<std::size_t>(u)] || agInFlight_[static_cast<std::size_t>(u)]) return;
        agInFlight_[static_cast<std::size_t>(u)] = true;
        cur_[MemCategory::CommBuffers] += c_[static_cast<std::size_t>(u)].unsharded;
    }
    void flushPrefetch()
    {
        for (std::size_t u = 0; u < agInFlight_.size(); ++u)
            if (agInFlight_[u] && !gathered_[u]) { agInFlight_[u] = false; cur_[MemCategory::CommBuffers] -= c_[u].unsharded; }
    }
    u64 keptPartial(int u) const
    {
        return std::find(partial_.begin(), partial_.end(), u) != partial_.end() ? partialBytes(u) : 0;
    }
    u64 partialBytes(int u) const
    {
        const int k = r_.units[static_cast<std::size_t>(u)].reshardGroup;
        return k > 0 ? c_[static_cast<std::size_t>(u)].unsharded / static_cast<u64>(k) : 0;
    }

    void forward(int u)
    {
        const ResolvedUnit& ru = r_.units[static_cast<std::size_t>(u)];
        const UnitCost& c = c_[static_cast<std::size_t>(u)];
        gather(u);
        point(StepPhase::PreForward, u, label("pre-forward", u));
        finishGather(u);
        if (!ru.forwardPrefetch.empty()) {
            for (int p : ru.forwardPrefetch) prefetch(p);
        } else if (u + 1 < static_cast<int>(r_.units.size())) {
            prefetch(u + 1); // implicit: the next unit in forward order
        }
        for (int child : ru.children) forward(child);
        cur_[MemCategory::Activations] += c.saved;
        if (ru.reshardAfterForward) {
            gathered_[static_cast<std::size_t>(u)] = false;
            cur_[MemCategory::UnshardedParams] -= c.unsharded;
            if (ru.reshardGroup > 0) {
                partial_.push_back(u);
                cur_[MemCategory::UnshardedParams] += partialBytes(u);
            }
        }
        point(StepPhase::PostForward, u, label("post-forward", u));
    }

    std::vector<int> postOrderReversed() const
    {
        std::vector<int> post;
        std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
        while (!stack.empty()) {
            auto& [u, next] = stack.back();
            const auto& kids = r_.units[static_cast<std::size_t>(u)].children;
            if (next < kids.size()) {
                int k = kids[next++];
                stack.push_back({k, 0});
            } else {
                post.push_back(u);
                stack.pop_back();
            }
        }
        std::reverse(post.begin(), post.end());
        return post;
    }

    void backward(int u)
    {
        const ResolvedUnit& ru = r_.units[static_cast<std::size_t>(u)];
        const UnitCost& c = c_[static_cast<std::size_t>(u)];
        ++backwardOrderPos_;
        gather(u);
        point(StepPhase::PreBackward, u, label("pre-backward", u));
        finishGather(u);
        if (!ru.backwardPrefetch.empty()) {
            for (int p : ru.backwardPrefetch) prefetch(p);
        } else if (backwardOrderPos_ < order_.size()) {
            prefetch(order_[backwardOrderPos_]); // implicit: next in reverse post-forward order
        }
        cur_[MemCategory::Activations] += c.recompute;
        // Children run their backward while this unit's output gradients flow.
        for (auto it = ru.children.rbegin(); it != ru.children.rend(); ++it) backward(*it);
        // Without gradient sync the earlier micro-batches' gradients are
        // already there and this one accumulates into them in place.
        // While the unit's gradients appear, autograd frees the activations
        // it has consumed: the unit's peak is about max(activations, gradients).
        const u64 own = c.saved + c.recompute;
        const u64 overlap = plan_.training.gradAccum <= 1 ? std::min(own, c.grads) : 0;
        if (plan_.training.gradAccum <= 1) cur_[MemCategory::UnshardedGrads] += c.grads;
        cur_[MemCategory::Activations] += c.workspace;
        cur_[MemCategory::Activations] -= overlap;
        point(StepPhase::Backward, u, label("backward", u));
        cur_[MemCategory::Activations] -= c.workspace + own - overlap;
        // Post-backward: reshard; finish the reduce-scatter still in flight
        // (one at a time); copy the gradients into this unit's reduce-scatter input.
        cur_[MemCategory::UnshardedParams] -= c.unsharded;
        gathered_[static_cast<std::size_t>(u)] = false;
        finishReduce();
        cur_[MemCategory::CommBuffers] += c.reduceIn;
        point(StepPhase::PostBackward, u, label("post-backward", u));
        cur_[MemCategory::UnshardedGrads] -= c.grads;
        cur_[MemCategory::CommBuffers] += c.reduceOut;
        pendingReduce_ = c.reduceIn + c.reduceOut;
        pendingUnit_ = u;
    }

    // The reduce-scatter in flight completes: its buffers go, and its unit's
    // sharded gradients are held from now to the optimizer step.
    void finishReduce()
    {
        cur_[MemCategory::CommBuffers] -= pendingReduce_;
        pendingReduce_ = 0;
        if (pendingUnit_ >= 0) cur_[MemCategory::ShardedGrads] += c_[static_cast<std::size_t>(pendingUnit_)].shardGrads;
        pendingUnit_ = -1;
    }

    const ResolvedPlan& r_;
    const std::vector<UnitCost>& c_;
    const ActivationCosts& act_;
    const Plan& plan_;
    const ModuleTree& tree_;
    bool keep_;
    std::vector<bool> gathered_;
    std::vector<bool> agInFlight_;
    std::vector<int> partial_;
    std::vector<int> order_;
    std::size_t backwardOrderPos_ = 0;
    u64 pendingReduce_ = 0;
    int pendingUnit_ = -1;
    MemBreakdown cur_;
    MemBreakdown peakMem_;
    u64 peak_ = 0;
    int peakIndex_ = 0;
    int count_ = 0;
    std::vector<TimelinePoint> points_;
};

} // namespace

Estimate estimateMemory(const Plan& plan, const ModuleTree& tree, const ResolvedPlan& r, const EstimateOptions& options)
{
    Estimate est;
    est.worldSize = std::max(1, plan.mesh.worldSize());
    est.shardSize = std::max(1, plan.mesh.shardSize());
    est.capacityBytes = plan.mesh.deviceMemoryBytes;
    est.paramsTotal = tree.totalParams();
    est.units = static_cast<int>(r.units.size());
    const u64 W = static_cast<u64>(est.shardSize);
    const bool cuda = plan.mesh.device == Device::Cuda;
    // On the CPU a shard group whose ranks share a host reduces through shared
    // memory (the core's shm_group.hpp): no full-size output, a shard-sized sum.
    const int perNode = plan.mesh.procsPerNode;
    const bool sharedMemory = !cuda && (plan.mesh.nodes == 1 || (perNode > 0 && perNode % est.shardSize == 0));

    ActivationCosts act = activationCosts(plan, tree, r);
    std::vector<UnitCost> costs(r.units.size());

    // Persistent per-rank state, in each parameter's own dtype (mixed
    // precision never changes it). Shards of parameters are padded (every rank
    // allocates ceil(rows/W) rows); gradients and AdamW state follow the real
    // rows a rank holds, so trailing ranks may hold less (difference arrays).
    const std::size_t ranks = static_cast<std::size_t>(est.worldSize);
    std::vector<std::int64_t> deviceState(W + 1, 0), hostState(W + 1, 0);
    u64 paddedParamsDevice = 0, paddedParamsHost = 0;
    u64 replicated = 0; // bytes of ignored parameters, full on every rank

    for (std::size_t p = 0; p < tree.params().size(); ++p) {
        const Param& prm = tree.param(static_cast<int>(p));
        if (prm.tiedTo >= 0) continue;
        const int owner = r.paramOwner[p];
        const u64 own = dtypeBytes(prm.dtype);
        if (owner < 0) { // autograd's own gradient, zeroed (not freed) between steps
            replicated += static_cast<u64>(prm.numel()) * own;
            continue;
        }
        est.paramsSharded += prm.numel();
        const ResolvedUnit& ru = r.units[static_cast<std::size_t>(owner)];
        UnitCost& c = costs[static_cast<std::size_t>(owner)];
        const u64 rows = static_cast<u64>(prm.rows());
        const u64 rowNumel = static_cast<u64>(prm.rowNumel());
        const u64 chunk = static_cast<u64>(shardChunkRows(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(W)));
        c.shardNumel += chunk * rowNumel;
        c.unsharded += W * chunk * rowNumel * dtypeBytes(ru.paramDtype);
        c.grads += W * chunk * rowNumel * dtypeBytes(ru.paramDtype);
        const u64 reduce = W * chunk * rowNumel * dtypeBytes(ru.reduceDtype);
        c.reduceIn += reduce;
        // Shared memory sums the peers' slots straight into the sharded gradients: no output buffer.
        if (cuda) c.reduceOut += chunk * rowNumel * dtypeBytes(ru.reduceDtype);
        else if (W > 1 && (!sharedMemory || ru.offload)) c.reduceOut += reduce; // one rank on the CPU: nothing to exchange
        (ru.offload ? paddedParamsHost : paddedParamsDevice) += chunk * rowNumel * own;
        // Sharded gradients are freed between steps (FSDP2's zero_grad sets
        // them to None; the core releases its buffer): on the device they are
        // transient, held from the unit's reduce to the optimizer step, in
        // the padded buffer every rank allocates. An offloaded unit keeps its
        // host buffer.
        if (!ru.offload) c.shardGrads += chunk * rowNumel * own;
        // Real rows per shard rank s: chunk for s < full, the remainder at s == full.
        if (chunk == 0) continue;
        const u64 full = static_cast<u64>(fullShardRanks(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(W)));
        const u64 rem = rows - full * chunk;
        const u64 perRow = ru.offload ? 3 * own : 2 * own; // AdamW's two states, and on the host the gradient
        std::vector<std::int64_t>& diff = ru.offload ? hostState : deviceState;
        // Shard rank s is the same on every replica: expand over world ranks below.
        diff[0] += static_cast<std::int64_t>(chunk * rowNumel * perRow);
        diff[full] -= static_cast<std::int64_t>(chunk * rowNumel * perRow);
        if (rem && full < W) {
            diff[full] += static_cast<std::int64_t>(rem * rowNumel * perRow);
            diff[full + 1] -= static_cast<std::int64_t>(rem * rowNumel * perRow);
        }
    }

    // Activations per unit: modules owned by the unit; checkpointed units keep their input.
    for (std::size_t u = 0; u < r.units.size(); ++u) {
        const int parent = r.units[u].parent;
        costs[u].underCheckpoint = parent >= 0 && (r.units[static_cast<std::size_t>(parent)].checkpoint ||
                                                   costs[static_cast<std::size_t>(parent)].underCheckpoint);
    }
    std::vector<u64> ownSaved(r.units.size(), 0), subtreeSaved(r.units.size(), 0), ownWork(r.units.size(), 0);
    for (std::size_t m = 0; m < tree.modules().size(); ++m) {
        const std::size_t u = static_cast<std::size_t>(r.moduleUnit[m]);
        ownSaved[u] += act.saved[m];
        ownWork[u] = std::max(ownWork[u], act.workspace[m]);
    }
    for (std::size_t u = r.units.size(); u-- > 0;) {
        subtreeSaved[u] += ownSaved[u];
        if (r.units[u].parent >= 0) subtreeSaved[static_cast<std::size_t>(r.units[u].parent)] += subtreeSaved[u];
    }
    for (std::size_t u = 0; u < r.units.size(); ++u) {
        UnitCost& c = costs[u];
        c.workspace = ownWork[u];
        if (c.underCheckpoint) continue;
        if (r.units[u].checkpoint) {
            c.saved = act.unitInput[u];
            c.recompute = subtreeSaved[u];
        } else {
            c.saved = ownSaved[u];
        }
    }

    StepWalker walker(r, costs, act, plan, tree, options.timeline);
    walker.run();

    // Per world rank: shard rank = world rank % shard group size.
    std::vector<std::int64_t> dev(W, 0), host(W, 0);
    std::int64_t accD = 0, accH = 0;
    for (u64 s = 0; s < W; ++s) {
        accD += deviceState[s];
        accH += hostState[s];
        dev[s] = accD;
        host[s] = accH;
    }
    est.ranks.resize(ranks);
    u64 worst = 0;
    for (std::size_t w = 0; w < ranks; ++w) {
        const u64 s = w % W;
        RankEstimate& re = est.ranks[w];
        re.rank = static_cast<int>(w);
        re.atPeak = walker.peakBreakdown();
        re.atPeak[MemCategory::ShardedParams] = paddedParamsDevice + replicated;
        re.atPeak[MemCategory::ShardedGrads] += replicated; // the walker's sharded gradients, and autograd's own
        re.atPeak[MemCategory::OptimizerState] = static_cast<u64>(dev[s]) + 2 * replicated;
        re.peakBytes = re.atPeak.total();
        re.peakPoint = walker.peakIndex();
        re.hostBytes = paddedParamsHost + static_cast<u64>(host[s]);
        if (re.peakBytes > worst) {
            worst = re.peakBytes;
            est.worstRank = static_cast<int>(w);
        }
    }
    if (options.timeline) {
        est.timeline = walker.takeTimeline();
        const RankEstimate& wr = est.ranks[static_cast<std::size_t>(est.worstRank)];
        for (TimelinePoint& p : est.timeline) {
            p.memory[MemCategory::ShardedParams] = wr.atPeak[MemCategory::ShardedParams];
            p.memory[MemCategory::ShardedGrads] += replicated;
            p.memory[MemCategory::OptimizerState] = wr.atPeak[MemCategory::OptimizerState];
        }
    }
    return est;
}

Estimate estimateMemory(const Plan& plan, const ModuleTree& tree)
{
    return estimateMemory(plan, tree, resolvePlan(plan, tree));
}

int largestFittingMicroBatch(const Plan& plan, const ModuleTree& tree, int limit)
{
    Plan p = plan;
    const ResolvedPlan r = resolvePlan(plan, tree);
    auto fits = [&](int b) {
        p.training.microBatch = b;
        // Beyond the modelled bound nothing fits (and the byte counts could overflow).
        return planByteBound(p, tree).modelled() && estimateMemory(p, tree, r, EstimateOptions{false}).fits();
    };
    if (!fits(1)) return 0;
    int lo = 1, hi = 2;
    while (hi <= limit && fits(hi)) { lo = hi; hi *= 2; }
    if (hi > limit) return lo;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

} // namespace sb
