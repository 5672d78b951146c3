// A sharded checkpoint describes itself in DIR/<run id>/step-NNNNNN/index.json:
// format version, the plan, step, optimizer step, data position, run id, and
// for every tensor (parameters and AdamW state) its global shape and which
// file holds which row range, with a CRC-32C of every shard and SHA-256 of
// every file. index.json.sha256 (`sha256sum` format), written last, is the
// index's own checksum and the commit record. Unknown versions are refused;
// version 1 (no index checksum) is read for inspect, verify and export only.
#pragma once

#include "json/json.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sb {
class ModuleTree;
}

namespace sb::ckpt {

// 2: index.json.sha256 and per-run folders. 1: neither (read-only, see warning()).
inline constexpr int kCheckpointFormatVersion = 2;
inline constexpr int kOldestReadableVersion = 1;
inline constexpr const char* kCheckpointFormat = "shardbench-checkpoint";
inline constexpr const char* kIndexFile = "index.json";
inline constexpr const char* kIndexChecksumFile = "index.json.sha256";

struct ShardRef {
    std::string file;               // "rank-00003.safetensors"
    std::int64_t rowBegin = 0;      // rows [rowBegin, rowEnd) of the global tensor
    std::int64_t rowEnd = 0;
    std::string crc32c;             // of this shard's bytes (checked on every load)
};

struct TensorInfo {
    std::string name;               // "param/layers.0.attention.wq.weight", "exp_avg/...", "exp_avg_sq/..."
    std::string dtype = "F32";
    std::vector<std::int64_t> shape;
    std::vector<ShardRef> shards;   // ordered by rowBegin, covering every row once
    std::int64_t rowNumel() const;
};

struct FileInfo {
    std::string name;
    std::uint64_t bytes = 0;
    std::string sha256;
};

struct CheckpointIndex {
    int version = kCheckpointFormatVersion;
    std::int64_t step = 0;          // training steps completed
    std::int64_t optimizerStep = 0; // AdamW's step counter
    int worldSize = 1, shardSize = 1, replicate = 1;
    std::uint64_t seed = 0;
    std::uint64_t nextSample = 0;   // data position: first global sample of the next step
    std::string runId;
    double created = 0;             // unix seconds
    json::Value plan;
    std::vector<TensorInfo> tensors;
    std::vector<FileInfo> files;
    bool checksummed = false;       // read: index.json matched index.json.sha256

    json::Value toJson() const;
    // The structure only. Errors name what is wrong.
    static Result<CheckpointIndex> fromJson(const json::Value& v);
    // Against the model of the plan the index carries: every parameter and both
    // AdamW states present (and nothing else), shapes as the plan says, F32.
    // (fromJson already checked that each tensor's row ranges cover it once.)
    Status checkComplete() const;
    // Why this index is only fit for reading ("" when it may be resumed):
    // an index without its checksum cannot prove that its step or data
    // position were not edited.
    std::string readOnlyReason() const;
    const TensorInfo* find(const std::string& name) const;
};

std::string stepDirName(std::int64_t step); // "step-000100"
// A run id names the run's folder under the checkpoint root: 1 to 128 of
// [A-Za-z0-9._-], not starting with a dot or "step-".
bool isValidRunId(const std::string& runId);

// Every non-tied parameter of `tree` with its exp_avg and exp_avg_sq, at the
// parameter's (sharded) shape, F32, and no other tensor. Errors say why not.
Status checkTensorsAgainstModel(const CheckpointIndex& index, const ModuleTree& tree);

// Reads DIR/index.json: a regular file, its SHA-256 equal to the one in
// DIR/index.json.sha256 (when absent: version 1 only), well formed, complete
// against its plan's model, and its step the one the folder is named for.
// Errors name the file and the problem.
Result<CheckpointIndex> readIndex(const std::string& dir);
// Writes DIR/index.json, then DIR/index.json.sha256 (the commit record), each fsynced.
Status writeIndex(const std::string& dir, const CheckpointIndex& index);

} // namespace sb::ckpt
