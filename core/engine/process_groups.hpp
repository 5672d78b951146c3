// The validated mesh of one rank: the world group, and for HSDP its shard
// group and replicate group, all c10d Gloo (CPU) process groups over one
// TCPStore rendezvous. The only source of truth about ranks and groups.
#pragma once

#include "dist_env.hpp"
#include "torch_compat.hpp"

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace sb::engine {

using WorkPtr = c10::intrusive_ptr<CommWork>;

class DeviceMesh {
public:
    // Connects to the rendezvous and builds the groups. On failure returns
    // nullptr and sets `error`; `rendezvousFailed` tells a master that could
    // not be reached from other failures.
    static std::unique_ptr<DeviceMesh> connect(const DistEnv& env, int replicate, std::string& error, bool& rendezvousFailed);

    int rank() const { return rank_; }
    int world() const { return world_; }
    int shardRank() const { return shardRank_; }
    int shardSize() const { return shardSize_; }
    int replicaIndex() const { return replicaIndex_; }
    int replicate() const { return replicate_; }

    // All-gather within the shard group: `output` (shardSize * n elements)
    // receives every rank's `input` (n elements) in rank order. Implemented
    // as one broadcast per rank into the chunks of `output` (Gloo's list
    // all-gather needs a temporary as large as the output). bf16 travels as
    // fp16 bytes. Returns the pending works; wait() on all of them.
    std::vector<WorkPtr> allGatherAsync(const torch::Tensor& input, const torch::Tensor& output);
    // Gloo has no reduce-scatter: an all-to-all of the full buffer `input`
    // (shardSize x n) into `output` (same size); the caller sums the rows.
    WorkPtr allToAllAsync(const torch::Tensor& input, const torch::Tensor& output);
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
    int rank_ = 0, world_ = 1;
    int shardRank_ = 0, shardSize_ = 1;
    int replicaIndex_ = 0, replicate_ = 1;
    c10::intrusive_ptr<::c10d::Store> store_;
    c10::intrusive_ptr<CommBackend> worldGroup_;
    c10::intrusive_ptr<CommBackend> shardGroup_;
    c10::intrusive_ptr<CommBackend> replicaGroup_;
};

} // namespace sb::engine
