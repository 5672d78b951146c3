// A sharded checkpoint describes itself in DIR/step-NNNNNN/index.json: format
// version, the plan, step, optimizer step, data position, and for every
// tensor (parameters and AdamW state) its global shape and which file holds
// which row range, with a CRC-32C of every shard and SHA-256 of every file. Unknown
// versions are refused.
#pragma once

#include "json/json.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sb::ckpt {

inline constexpr int kCheckpointFormatVersion = 1;
inline constexpr const char* kCheckpointFormat = "shardbench-checkpoint";

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

    json::Value toJson() const;
    // Returns "" or a sentence naming what is wrong.
    static std::string fromJson(const json::Value& v, CheckpointIndex& out);
    const TensorInfo* find(const std::string& name) const;
};

std::string stepDirName(std::int64_t step); // "step-000100"

// Reads DIR/index.json. Errors name the file and the problem.
std::string readIndex(const std::string& dir, CheckpointIndex& out);
// Writes DIR/index.json and fsyncs it.
std::string writeIndex(const std::string& dir, const CheckpointIndex& index);

} // namespace sb::ckpt
