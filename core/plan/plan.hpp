// A sharding plan: the model, the device mesh, the shard units with their
// per-unit FSDP2 policies, and the training settings. Saved as versioned JSON
// (plan_json.hpp) with every run and checkpoint.
#pragma once

#include "dtype.hpp"
#include "model_config.hpp"
#include "problem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sb {

inline constexpr int kPlanFormatVersion = 1;
inline constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;
// The estimator reports every rank; beyond this a plan is refused, not modelled.
inline constexpr int kMaxWorldSize = 1 << 17;

enum class Device { Cpu, Cuda };

struct Mesh {
    int nodes = 1;
    int procsPerNode = 2;
    int replicate = 1;           // HSDP replicate degree; the shard group is world / replicate
    Device device = Device::Cpu;
    std::string deviceName = "CPU RAM";
    std::uint64_t deviceMemoryBytes = 16 * kGiB; // capacity per rank
    std::uint64_t hostMemoryBytes = 0;           // per node, for offload; 0 = unknown
    int worldSize() const { return nodes * procsPerNode; }
    int shardSize() const { return replicate > 0 ? worldSize() / replicate : worldSize(); }
    void validate(Problems& problems) const;
};

// reshard_after_forward: "default" (true, or false for the root as FSDP2
// does), true, false, or an integer k (keep a 1/k copy; k divides the shard group).
struct Reshard {
    enum Kind { Default, True, False, Group };
    Kind kind = Default;
    int group = 0;
    bool operator==(const Reshard& o) const { return kind == o.kind && group == o.group; }
};

// FSDP2 MixedPrecisionPolicy: an unset dtype means "the parameter's own".
struct MixedPrecision {
    std::optional<DType> paramDtype;
    std::optional<DType> reduceDtype;
    std::optional<DType> outputDtype;
    bool castForwardInputs = true;
    bool operator==(const MixedPrecision& o) const
    {
        return paramDtype == o.paramDtype && reduceDtype == o.reduceDtype && outputDtype == o.outputDtype &&
               castForwardInputs == o.castForwardInputs;
    }
};

enum class Checkpointing { None, Full };

struct UnitPolicy {
    std::string module;          // "" is the root
    Reshard reshard;
    MixedPrecision mp;
    bool offload = false;        // CPUOffloadPolicy
    Checkpointing ac = Checkpointing::None;
    std::vector<std::string> forwardPrefetch;  // units to all-gather early in forward
    std::vector<std::string> backwardPrefetch; // ... and in backward
    std::vector<std::string> ignoredParams;    // fully_shard(ignored_params=...)
    bool operator==(const UnitPolicy& o) const
    {
        return module == o.module && reshard == o.reshard && mp == o.mp && offload == o.offload && ac == o.ac &&
               forwardPrefetch == o.forwardPrefetch && backwardPrefetch == o.backwardPrefetch &&
               ignoredParams == o.ignoredParams;
    }
};

struct OptimizerConfig {
    double lr = 3e-4;
    double beta1 = 0.9;
    double beta2 = 0.95;
    double eps = 1e-8;
    double weightDecay = 0.1;
    int warmupSteps = 0;
    std::string schedule = "constant"; // constant | cosine
    double minLrRatio = 0.1;           // cosine floor as a fraction of lr
    // Parameters AdamW does not decay, as nanoGPT and TorchTitan offer: "1d"
    // (fewer than 2 dimensions: norms and biases), "embeddings". Empty: all decay.
    std::vector<std::string> noDecay;
};

struct DataConfig {
    enum Kind { Synthetic, Tokens, Text };
    // Tokens of a headerless file (nanoGPT's .bin); llm.c's and Megatron's
    // files say their own. Auto: uint16 when the vocabulary fits, else uint32.
    enum class TokenDtype { Auto, U16, U32 };
    Kind kind = Synthetic;
    std::string path; // token file (nanoGPT, llm.c or Megatron .bin/.idx; core/data/token_file.hpp) or raw text
    TokenDtype dtype = TokenDtype::Auto;
};

// "auto", "uint16", "uint32": the plan's and the CLI's names, and back (nullopt for another).
const char* tokenDtypeName(DataConfig::TokenDtype t);
std::optional<DataConfig::TokenDtype> parseTokenDtype(const std::string& name);

// The validation loss: after every `every` steps (0: only after the last
// step) and after the last, the mean loss over a fixed set of held-out
// sequences, `batches` batches of micro_batch x the plan's world, sharded
// across ranks as training is, with no gradient. The same set at any world
// size. Held out: a file of its own (`path`, same kind as the training data),
// or the last `holdout` fraction of the training file, which training then
// never reads; synthetic data has a held-out stream of its own.
struct EvalConfig {
    static constexpr int kMaxBatches = 100000;
    int every = 0;
    int batches = 0; // 0: no validation loss
    std::string path;
    DataConfig::TokenDtype dtype = DataConfig::TokenDtype::Auto;
    double holdout = 0;
    bool enabled() const { return batches > 0; }
    // Whether the validation loss is taken after step `done` (1-based) of `steps`.
    bool dueAfter(int done, int steps) const { return enabled() && (done == steps || (every > 0 && done % every == 0)); }
};

struct CheckpointConfig {
    std::string dir;   // empty: no checkpoints
    int interval = 0;  // steps between saves; 0 = only at the end when dir is set
    int keep = 2;      // most recent checkpoints kept
    bool async = true;
};

struct TrainingConfig {
    int microBatch = 8;
    int seqLen = 64;
    int gradAccum = 1;
    int steps = 20;
    std::uint64_t seed = 0;
    double gradClip = 1.0; // max global L2 norm; 0 disables clipping
    OptimizerConfig optimizer;
    DataConfig data;
    EvalConfig eval;
    CheckpointConfig checkpoint;
    void validate(const ModelConfig& model, Problems& problems) const;

private:
    void validateEval(const JsonPath& at, Problems& problems) const;
};

struct Plan {
    int version = kPlanFormatVersion;
    std::string name;
    ModelConfig model;
    Mesh mesh;
    std::vector<UnitPolicy> units; // always contains the root ("")
    TrainingConfig training;

    // The root's policy (created with defaults when absent).
    UnitPolicy& root();
    const UnitPolicy* findUnit(const std::string& module) const;
    UnitPolicy* findUnit(const std::string& module);
};

// The default plan for a preset: root plus one unit per block, as the
// FSDP2 tutorial does.
Plan defaultPlan(const ModelConfig& model);

// Every problem in the plan at once: sizes, mesh, units against the model tree,
// training settings. Never throws.
Problems validatePlan(const Plan& plan, const ModuleTree& tree);

} // namespace sb
