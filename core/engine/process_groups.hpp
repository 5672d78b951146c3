// The validated mesh of one rank: the world group, and for HSDP its shard
// group and replicate group, all c10d process groups over one TCPStore
// rendezvous: Gloo on the CPU, NCCL on CUDA (device.hpp). The only source of
// truth about ranks and groups, and the only place that knows what each
// backend can do.
#pragma once

#include "dist_env.hpp"
#include "shm_group.hpp"
#include "torch_compat.hpp"
#include "util/status.hpp"

#include <torch/torch.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sb::engine {

using WorkPtr = c10::intrusive_ptr<CommWork>;

class DeviceMesh {
public:
    // Whether `replicate` divides the world: a plan's mistake, not a rendezvous failure.
    static Status checkReplicate(const DistEnv& env, int replicate);
    // Connects to the rendezvous and builds the groups (replicate checked
    // before), or says why the rendezvous failed.
    // The backend follows the compute device chosen before (selectDevice).
    static Result<std::unique_ptr<DeviceMesh>> connect(const DistEnv& env, int replicate);

    int rank() const { return rank_; }
    int world() const { return world_; }
    int shardRank() const { return shardRank_; }
    int shardSize() const { return shardSize_; }
    int replicaIndex() const { return replicaIndex_; }
    int replicate() const { return replicate_; }

    // All-gather within the shard group: `output` (shardSize * n elements)
    // receives every rank's `input` (n elements) in rank order. NCCL: one
    // all_gather_base. Gloo: one broadcast per rank into the chunks of
    // `output` (its list all-gather needs a temporary as large as the
    // output), bf16 travelling as fp16 bytes. Returns the pending works;
    // wait() on all of them.
    std::vector<WorkPtr> allGatherAsync(const torch::Tensor& input, const torch::Tensor& output);
    // reshard_after_forward = k: the groups of k consecutive shard ranks that
    // hold a unit's parameters between its forward and its backward. Every
    // rank adds the same k values in the same order (each builds only its own
    // group). Then allGatherAsync within this rank's group of k.
    void addReshardGroup(int k);
    std::vector<WorkPtr> allGatherAsync(const torch::Tensor& input, const torch::Tensor& output, int k);
    // A shard group whose ranks share one host (on the CPU): the units'
    // all-gathers and reduce-scatters go through shared memory
    // (shm_group.hpp), sized for the largest unit (its unsharded parameters
    // in the param dtype; its whole gradient in the reduce dtype), instead of
    // Gloo. Every rank of the world calls this once with its own group's
    // sizes. SB_SHM=0 keeps Gloo; so does any failure, with a note on stderr.
    void enableSharedMemory(std::size_t gatherRegionBytes, std::size_t reduceSlotBytes);
    ShmGroup* shm() const { return shm_.get(); }
    // The shard group's transport, as the plan event names it: "shm", "gloo" or "nccl".
    const char* shardCollectives() const { return nccl_ ? "nccl" : shm_ ? "shm" : "gloo"; }
    // Reduce-scatter within the shard group of `input` ([shardSize, n]: row r
    // goes to shard rank r). Allocates `output` and returns the pending work
    // (null when there is nothing to exchange); after wait(),
    // reducedRow(output) is this rank's summed row [n] in fp32. NCCL: one
    // reduce_scatter_base. Gloo has none: an all-to-all of the whole buffer
    // whose rows reducedRow sums.
    WorkPtr reduceScatterAsync(const torch::Tensor& input, torch::Tensor& output);
    static torch::Tensor reducedRow(const torch::Tensor& output);
    // Sums over a group, and broadcast over the world. Tensors may live on the
    // CPU in either backend: NCCL ones travel through the GPU. A small CPU
    // tensor's sum over a shard group with shared memory goes through it.
    void allReduceSumShard(torch::Tensor& t);
    void allReduceSumReplicas(torch::Tensor& t);
    void allReduceSumWorld(torch::Tensor& t);
    void barrier();
    // Broadcast over the whole world from `root`.
    void broadcastWorld(torch::Tensor& t, int root);
    // The rendezvous store (null in a world of one): used off the training
    // thread to coordinate checkpoint completion without collectives.
    const c10::intrusive_ptr<::c10d::Store>& store() const { return store_; }

private:
    // Runs `collective` on `t`, staged through the GPU when NCCL needs it there.
    void onCommDevice(torch::Tensor& t, const std::function<void(torch::Tensor&)>& collective) const;
    void allReduceSum(const c10::intrusive_ptr<CommBackend>& group, torch::Tensor& t) const;
    std::vector<WorkPtr> allGatherIn(const c10::intrusive_ptr<CommBackend>& group, int size, int rank,
                                     const torch::Tensor& input, const torch::Tensor& output);

    int rank_ = 0, world_ = 1;
    int shardRank_ = 0, shardSize_ = 1;
    int replicaIndex_ = 0, replicate_ = 1;
    bool nccl_ = false;
    c10::intrusive_ptr<::c10d::Store> store_;
    c10::intrusive_ptr<CommBackend> worldGroup_;
    c10::intrusive_ptr<CommBackend> shardGroup_;
    c10::intrusive_ptr<CommBackend> replicaGroup_;
    std::map<int, c10::intrusive_ptr<CommBackend>> reshardGroups_; // by k
    DistEnv env_;
    GlooDevicePtr glooDevice_;
    std::unique_ptr<ShmGroup> shm_;
};

} // namespace sb::engine
