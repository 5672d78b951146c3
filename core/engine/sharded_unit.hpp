// One shard unit: its parameters sharded on dim 0 across the shard group
// (plan/shard_layout: chunk = ceil(rows / W), padded; trailing ranks may
// hold fewer rows or none), kept in one flat fp32 buffer; the unsharded parameters the model
// computes with, whose storage is freed and refilled in place (FSDP2's
// method, so autograd's saved references stay valid); the all-gather and
// reduce-scatter of the unit as one flat collective each.
#pragma once

#include "plan/resolve.hpp"
#include "process_groups.hpp"

#include <torch/torch.h>

#include <vector>

namespace sb::engine {

struct ShardParam {
    int index = -1;                  // tree parameter
    std::vector<std::int64_t> shape; // full shape
    std::int64_t rows = 0, rowNumel = 0, chunk = 0, localRows = 0;
    std::int64_t rowBegin = 0;       // first global row this rank holds (shardRows().begin)
    std::int64_t offset = 0;         // element offset in the flat shard
    std::int64_t fullOffset = 0;     // element offset in the unit's unsharded layout (a shared-memory region)
    torch::Tensor shard;             // [localRows, ...] view of the flat shard (what AdamW updates)
    torch::Tensor grad;              // [localRows, ...] fp32 sharded gradient (a view of the unit's flat gradient)
    torch::Tensor full;              // the unsharded parameter the model uses (param_dtype)
    // Its gradient summed over micro-batches without gradient sync, in the
    // reduce dtype (FSDP2 upcasts there rather than summing in param_dtype).
    torch::Tensor accumulated;
};

// SB_OFFLOAD_ON_CPU=1: offloaded units keep their CPU-plan state "on the host"
// through the same copies as on a GPU (tests of the bookkeeping).
bool offloadOnCpuForTests();

class ShardedUnit {
public:
    ShardedUnit(const ModuleTree& tree, const ResolvedUnit& unit, int index, DeviceMesh& mesh);

    int index() const { return index_; }
    // CPU offload (FSDP2's CPUOffloadPolicy): this unit's sharded parameters,
    // gradients and so AdamW's state live in (pinned) host memory; the shard is
    // copied to the device for the all-gather, the reduced gradient back.
    bool offloaded() const { return offloaded_; }
    int module() const { return unit_.module; }
    const ResolvedUnit& policy() const { return unit_; }
    std::vector<ShardParam>& params() { return params_; }
    std::int64_t shardNumel() const { return shardNumel_; }
    // Elements of the unsharded parameters laid out one after another (each
    // 64-byte aligned): the all-gather's shared-memory region.
    std::int64_t fullNumel() const { return fullNumel_; }
    torch::Tensor& flatShard() { return flat_; }
    // The sharded gradients are one buffer laid out as flatShard() (padding
    // stays zero): the reduce-scatter's output is added to it in one operation.
    // Between steps the sharded gradients hold no memory, as FSDP2's after
    // zero_grad() (gradients set to None): releaseGrad() frees the buffer
    // (the parameters' gradient views keep pointing at its storage), and the
    // unit's first reduce of the next step, or holdGrad(), allocates it
    // again, zeroed. An offloaded unit keeps its pinned host buffer (zeroed).
    void releaseGrad();
    void holdGrad();

    // The end of a forward and backward (or of a step): the shards may
    // change from here, so a later gather writes this rank's rows again even
    // into a region that still holds them.
    void endPass();

    bool gathered() const { return gathered_; }
    bool gatherPending() const { return !works_.empty() || buffer_.defined() || (shmGather_.valid() && !gathered_); }
    // Issues the all-gather (asynchronous; idempotent while pending or gathered).
    void startGather();
    // Waits for it and copies out into the unsharded parameters. Returns the
    // milliseconds spent waiting (exposed communication).
    double finishGather();
    // Frees the unsharded parameters' memory (storage resized to 0 bytes),
    // and any post-forward shard.
    void reshard();
    // After forward: reshard(), or with reshard_after_forward = k keep this
    // rank's 1/k of the unsharded parameters (rows split across the k
    // consecutive shard ranks of its reshard group) so that the backward
    // all-gather runs within those k ranks, as FSDP2's post-forward mesh.
    void reshardAfterForward();

    // Reduce-scatter of the unsharded gradients: asynchronous start, then
    // finish (sum, divide by the data-parallel size, accumulate into the
    // sharded fp32 gradients). Returns ms waited.
    void startReduce();
    double finishReduce();
    bool reducePending() const { return rsOut_.defined() || shmReduce_.valid(); }
    bool hasUnshardedGrads() const;
    // After a backward without gradient sync: when the reduce dtype differs
    // from param_dtype, the unsharded gradients move into `accumulated`.
    void accumulateUnshardedGrads();

private:
    // Where each parameter's rows sit in a flat buffer split `size` ways.
    struct Slot {
        std::int64_t chunk = 0, localRows = 0, rowBegin = 0, offset = 0;
        // Rows split `ways` ways (shardRows: chunk = ceil(rows / ways)), as seen
        // by `rank`, placed at `numel` in a flat buffer that grows by a chunk.
        static Slot of(std::int64_t rows, std::int64_t rowNumel, std::int64_t ways, std::int64_t rank, std::int64_t& numel);
    };
    static std::size_t fullBytes(const ShardParam& p);
    // Points the unsharded parameter's storage (which autograd's saved
    // references share) at `data`.
    static void attachFull(ShardParam& p, c10::DataPtr data);
    void allocateFull(ShardParam& p);
    // Gives the released sharded-gradient buffer memory again, not zeroed;
    // false when it held some already.
    bool allocateGrad();
    void freeFull();
    // Whether this unit's gradients go into its shared-memory reduce slot in
    // param_dtype (bf16), widened by the reader, rather than cast to the
    // reduce dtype first: half the bytes written and read, the same sums.
    bool publishesUnwidened() const;

    int index_;
    ResolvedUnit unit_;
    bool offloaded_ = false;
    DeviceMesh& mesh_;
    std::vector<ShardParam> params_;
    std::int64_t shardNumel_ = 0;
    std::int64_t fullNumel_ = 0;
    torch::Tensor flat_;
    torch::Tensor flatGrad_;
    bool gathered_ = false;
    torch::Tensor buffer_;           // all-gather output [W * shardNumel] in param_dtype
    torch::Tensor gatherInput_;      // kept alive while the all-gather runs
    std::vector<WorkPtr> works_;
    torch::Tensor rsIn_, rsOut_;
    WorkPtr rsWork_;
    // The shared-memory collectives (DeviceMesh::shm()) in place of
    // works_/buffer_ and rsWork_/rsOut_. The all-gather's ticket is held from
    // startGather to the reshard: the unsharded parameters are views of its
    // region. The reduce-scatter's slot is this rank's rsIn_.
    ShmGroup::Ticket shmGather_, shmReduce_;
    torch::ScalarType shmWire_ = torch::kFloat; // the reduce slot's element type
    bool accumulatedThisStep_ = false;          // accumulateUnshardedGrads() ran since the last reduce
    // The all-gather ticket last released in this forward and backward.
    ShmGroup::Ticket lastGather_;
    bool startSharedGather();
    void pointAtRegion();
    // reshard_after_forward = k: this rank's rows of each parameter in the
    // group of k (param_dtype), held from post-forward to the backward gather.
    std::vector<Slot> postSlots_;
    std::int64_t postNumel_ = 0;
    torch::Tensor post_;
    bool gatherFromPost_ = false;
};

} // namespace sb::engine
