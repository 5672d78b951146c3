// Sharded checkpoints of a running job (format: core/checkpoint), in the
// run's own folder DIR/<run id>/step-N: rotation (keep N) sees only that
// folder, so runs sharing DIR never delete each other's checkpoints. Every
// shard rank of replica 0 writes its file; rank 0 writes the index and its
// checksum once all files are durable and renames step-N.tmp to step-N, so a
// crash never leaves a checkpoint that looks complete. Async saves snapshot the shards into host
// buffers on the training thread and write in a background thread (at nice
// 19, around the page cache),
// coordinating completion through the rendezvous store, not collectives.
// Loading reads only the shards overlapping this rank's rows, so a
// checkpoint loads at any world size.
#pragma once

#include "fully_shard.hpp"
#include "process_groups.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "checkpoint/checkpoint_io.hpp"
#include "plan/plan.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

namespace sb::engine {

struct TrainingPosition {
    std::int64_t stepsDone = 0;
    std::uint64_t nextSample = 0; // first global sample of the next step
};

class Checkpointer {
public:
    Checkpointer(const Plan& plan, const ModuleTree& tree, FullyShard& fsdp, torch::optim::AdamW& optimizer,
                 DeviceMesh& mesh, std::string runId);
    ~Checkpointer();

    bool enabled() const { return !root_.empty(); }
    // After a step: saves when the interval says so (and after the last step).
    void afterStep(const TrainingPosition& pos, bool last);
    // Snapshot now; writes asynchronously when the plan says so. Returns the
    // milliseconds the training thread was stalled.
    double save(const TrainingPosition& pos);
    // Blocks until a background save has finished.
    void waitForPendingSave();

    // Resume: `path` is a checkpoint folder, or a folder of one run's ("auto":
    // this run's own folder DIR/<run id>, nothing to load if it holds none).
    // Returns whether a checkpoint was loaded, or an error naming the file and the problem.
    Result<bool> load(const std::string& path, TrainingPosition& pos);

private:
    struct Snapshot;
    void write(std::shared_ptr<Snapshot> snap);
    // Rank 0: waits for every shard rank's file, merges their sidecars into the
    // index, commits it and reports the checkpoint (complete or failed).
    void finalize(const Snapshot& snap);
    // A save that failed leaves nothing: once every shard rank has finished
    // with its file (written or not), rank 0 removes the step's .tmp folder.
    // "" or why it could not be removed.
    std::string discard(const Snapshot& snap) const;
    Status awaitShardFiles(std::int64_t step) const;
    Result<ckpt::CheckpointIndex> mergedIndex(const Snapshot& snap) const;
    // Removes this run's checkpoints beyond `keep`; errors name each folder left behind.
    Status pruneOldCheckpoints();
    Status checkCompatible(const ckpt::CheckpointIndex& index, const std::string& dir) const;
    std::string runDir() const { return root_ + "/" + runId_; }

    const Plan& plan_;
    const ModuleTree& tree_;
    FullyShard& fsdp_;
    torch::optim::AdamW& optimizer_;
    DeviceMesh& mesh_;
    std::string runId_;
    std::string root_;
    // The last save's file image, kept for the next: the same size every time,
    // and its pages already mapped (fresh ones add ~0.33 ms/MiB to the stall).
    // Peak memory is that of a save in progress either way.
    std::unique_ptr<ckpt::ShardImage> spare_;
    std::thread worker_;
};

} // namespace sb::engine
