// Reading and writing the files of a sharded checkpoint, without LibTorch:
// the training core writes and loads through these, and the command line
// inspects, verifies and exports with them.
#pragma once

#include "checkpoint_index.hpp"
#include "safetensors.hpp"
#include "util/status.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace sb::ckpt {

// One rank's file: its tensors (name, global shape, the rows held, data).
struct ShardTensor {
    std::string name;                  // "param/..." / "exp_avg/..." / "exp_avg_sq/..."
    std::vector<std::int64_t> shape;   // global shape
    std::int64_t rowBegin = 0, rowEnd = 0;
    const float* data = nullptr;       // (rowEnd - rowBegin) x rowNumel floats
    std::size_t bytes() const;
};
struct WrittenFile {
    FileInfo file;
    std::vector<std::pair<std::string, ShardRef>> shards; // tensor name -> shard
};

// One rank's file laid out in memory exactly as it goes to disk (safetensors
// header, then every tensor's rows) in one page-aligned buffer: a snapshot
// copies the shards straight into place and writing needs no further copy.
class ShardImage {
public:
    // Lays out `tensors` (their data pointers are replaced by their place in
    // the image) in a buffer left uninitialised: `previous`'s when it is large
    // enough (its pages are mapped already: copying 360 MiB into fresh pages
    // took 140 ms, into mapped ones 22 ms), else a new one. Throws std::bad_alloc.
    explicit ShardImage(std::vector<ShardTensor> tensors, ShardImage* previous = nullptr);
    ~ShardImage();
    ShardImage(const ShardImage&) = delete;
    ShardImage& operator=(const ShardImage&) = delete;

    const std::vector<ShardTensor>& tensors() const { return tensors_; }
    float* data(std::size_t i) { return const_cast<float*>(tensors_[i].data); } // fill tensor i here
    const unsigned char* bytes() const { return base_; }
    std::size_t size() const { return size_; } // of the file

private:
    std::vector<ShardTensor> tensors_;
    unsigned char* base_ = nullptr;
    std::size_t size_ = 0, mapped_ = 0;
};

// Writes the image as dir/fileName, durably, and records each shard's CRC-32C
// and the file's SHA-256, computed while the bytes go to disk.
Result<WrittenFile> writeShardFile(const std::string& dir, const std::string& fileName, const ShardImage& image);

// Committed checkpoints (step-NNNNNN with an index.json, not *.tmp) directly
// in `folder` (a run's folder DIR/<run id>, or a version-1 root), by step.
std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string& folder);
// The run folders under a checkpoint root: sub-folders holding checkpoints, sorted.
std::vector<std::string> listRunFolders(const std::string& root);
// `path` is a checkpoint folder, a run's folder DIR/<run id> (then its latest
// checkpoint), or a root DIR holding one run (the same) or several (then
// `runId` picks one; without it, an error listing the run ids). Returns the
// checkpoint folder, or an error naming `path`.
Result<std::string> resolveCheckpoint(const std::string& path, const std::string& runId = {});

// Reads rows [rowBegin, rowEnd) of tensor `name` into `out` (floats). Every
// shard it touches is read whole and its CRC-32C checked; verified shards are
// cached until the reader is destroyed or clear() is called.
class ShardReader {
public:
    ShardReader(std::string dir, const CheckpointIndex& index);
    Status readRows(const std::string& name, std::int64_t rowBegin, std::int64_t rowEnd, float* out);
    void clear() { cache_.clear(); }
    std::uint64_t bytesRead() const { return bytesRead_; }

private:
    Result<const std::vector<float>*> loadShard(const TensorInfo& t, const ShardRef& s); // the cached rows
    Status readShardInto(const TensorInfo& t, const ShardRef& s, float* dst);
    std::string dir_;
    const CheckpointIndex& index_;
    std::unordered_map<std::string, const TensorInfo*> byName_; // of index_.tensors
    std::map<std::string, SafetensorsFile> headers_;
    std::map<std::string, std::vector<float>> cache_; // key: file + tensor
    std::uint64_t bytesRead_ = 0;
};

using Progress = std::function<bool(double fraction)>; // return false to cancel

// Checks the index, every file's size and SHA-256, every header and every
// shard's CRC-32C. Ok when the checkpoint is intact.
Status verifyCheckpoint(const std::string& dir, const Progress& progress = {});
// Human summary: step, world size, tensors, sizes.
Result<std::string> describeCheckpoint(const std::string& dir);
// Writes the unsharded model (parameters only) as one .safetensors file,
// streaming one shard at a time, after checking every file's size and SHA-256
// against the index (nothing is written when one differs). Atomic (temporary
// file, then rename); no file is left behind when it fails.
Status exportCheckpoint(const std::string& dir, const std::string& outPath, const Progress& progress = {});

} // namespace sb::ckpt
