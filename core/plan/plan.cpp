#include "plan.hpp"

#include "resolve.hpp"
#include "size_bound.hpp"

#include <cmath>
#include <cstdio>

namespace sb {

std::string formatProblem(const Problem& p)
{
    return std::string(p.severity == Severity::Error ? "error: " : "warning: ") + p.path + ": " + p.message;
}

UnitPolicy& Plan::root()
{
    if (UnitPolicy* r = findUnit("")) return *r;
    units.insert(units.begin(), UnitPolicy{});
    return units.front();
}

const UnitPolicy* Plan::findUnit(const std::string& module) const
{
    for (const UnitPolicy& u : units)
        if (u.module == module) return &u;
    return nullptr;
}

UnitPolicy* Plan::findUnit(const std::string& module)
{
    for (UnitPolicy& u : units)
        if (u.module == module) return &u;
    return nullptr;
}

Plan defaultPlan(const ModelConfig& model)
{
    Plan p;
    p.name = model.preset;
    p.model = model;
    p.units.clear();
    p.root();
    auto tree = buildModuleTree(model);
    for (int b : tree->blocks()) {
        UnitPolicy u;
        u.module = tree->module(b).path;
        p.units.push_back(std::move(u));
    }
    if (model.arch != Arch::Tutorial) {
        p.mesh.device = Device::Cuda;
        p.mesh.deviceName = "H100 80GB";
        p.mesh.deviceMemoryBytes = 80 * kGiB;
        p.mesh.procsPerNode = 8;
        p.training.seqLen = static_cast<int>(std::min<std::int64_t>(model.maxSeqLen, 2048));
        p.training.microBatch = 1;
    } else {
        p.training.seqLen = static_cast<int>(model.maxSeqLen);
    }
    return p;
}

void Mesh::validate(Problems& ps) const
{
    auto error = [&](const char* key, const char* code, std::string msg) {
        ps.push_back({Severity::Error, std::string("$.mesh.") + key, code, std::move(msg)});
    };
    if (nodes < 1) error("nodes", "mesh.nodes", "nodes must be at least 1");
    if (procsPerNode < 1) error("procs_per_node", "mesh.procs", "procs_per_node must be at least 1");
    if (replicate < 1) error("replicate", "mesh.replicate", "replicate must be at least 1");
    else if (nodes >= 1 && procsPerNode >= 1 && worldSize() % replicate != 0)
        error("replicate", "mesh.replicate",
              "replicate degree " + std::to_string(replicate) + " does not divide world size " + std::to_string(worldSize()));
    if (nodes >= 1 && procsPerNode >= 1 && static_cast<long long>(nodes) * procsPerNode > kMaxWorldSize)
        error("nodes", "mesh.world_too_large",
              "world size " + std::to_string(static_cast<long long>(nodes) * procsPerNode) + " is above the " +
                  std::to_string(kMaxWorldSize) + " ranks shardbench models");
    if (deviceMemoryBytes == 0) error("device_memory_gib", "mesh.memory", "device memory must be greater than 0");
}

void TrainingConfig::validate(const ModelConfig& model, Problems& ps) const
{
    auto error = [&](const std::string& key, const char* code, std::string msg) {
        ps.push_back({Severity::Error, "$.training." + key, code, std::move(msg)});
    };
    if (microBatch < 1) error("micro_batch", "train.batch", "micro_batch must be at least 1");
    if (seqLen < 1) error("seq_len", "train.seq", "seq_len must be at least 1");
    if (gradAccum < 1) error("grad_accum", "train.accum", "grad_accum must be at least 1");
    if (steps < 0) error("steps", "train.steps", "steps must not be negative");
    if (model.arch != Arch::Imported && model.arch != Arch::Llama && seqLen > model.maxSeqLen)
        error("seq_len", "train.seq_too_long",
              "seq_len " + std::to_string(seqLen) + " exceeds the model's position table (max_seq_len " +
                  std::to_string(model.maxSeqLen) + ")");
    if (!(gradClip >= 0)) error("grad_clip", "train.clip", "grad_clip must be 0 (off) or positive");
    const OptimizerConfig& o = optimizer;
    if (!(o.lr > 0 && o.lr < 10)) error("optimizer.lr", "train.lr", "lr must be greater than 0 and below 10");
    if (!(o.beta1 >= 0 && o.beta1 < 1) || !(o.beta2 >= 0 && o.beta2 < 1))
        error("optimizer.betas", "train.betas", "betas must lie in [0, 1)");
    if (!(o.eps > 0)) error("optimizer.eps", "train.eps", "eps must be positive");
    if (!(o.weightDecay >= 0)) error("optimizer.weight_decay", "train.wd", "weight_decay must not be negative");
    if (o.schedule != "constant" && o.schedule != "cosine")
        error("optimizer.schedule", "train.schedule", "schedule must be \"constant\" or \"cosine\", got \"" + o.schedule + "\"");
    if (!(o.minLrRatio >= 0 && o.minLrRatio <= 1)) error("optimizer.min_lr_ratio", "train.min_lr", "min_lr_ratio must lie in [0, 1]");
    if (data.kind != DataConfig::Synthetic && data.path.empty())
        error("data.path", "train.data_path", "a tokens or text data source needs a \"path\"");
    if (checkpoint.interval > 0 && checkpoint.dir.empty())
        error("checkpoint.dir", "train.ckpt_dir", "a checkpoint interval needs a checkpoint \"dir\"");
}

Problems validatePlan(const Plan& plan, const ModuleTree& tree)
{
    Problems ps;
    if (plan.version != kPlanFormatVersion)
        ps.push_back({Severity::Error, "$.version", "plan.version", "unsupported plan version " + std::to_string(plan.version)});
    const std::size_t beforeModel = ps.size();
    plan.model.validate("$.model", ps);
    const bool sizesOk = ps.size() == beforeModel; // invalid sizes build an empty tree: said once, above
    plan.mesh.validate(ps);
    plan.training.validate(plan.model, ps);
    if (tree.modules().size() <= 1 && tree.params().empty()) {
        if (sizesOk) ps.push_back({Severity::Error, "$.model", "plan.empty_model", "the model has no parameters"});
        return ps;
    }
    if (const ByteBound bound = planByteBound(plan, tree); !bound.modelled()) {
        // The estimator's 64-bit byte counts could overflow: refuse, naming the larger part.
        char bytes[32];
        const bool model = bound.params >= bound.activations;
        std::snprintf(bytes, sizeof bytes, "%.2Le", model ? bound.params : bound.activations);
        ps.push_back({Severity::Error, model ? "$.model" : "$.training.micro_batch", "plan.too_large",
                      std::string(model ? "the model is too large to estimate: its parameter state could reach "
                                        : "micro_batch x seq_len is too large to estimate: activations could reach ") +
                          bytes + " bytes per rank, above the 2^62 bytes (4 EiB) shardbench models"});
    }
    ResolvedPlan r = resolvePlan(plan, tree, &ps);

    // fully_shard refuses 0-dim parameters; only an imported tree can have them.
    for (const Module& m : tree.modules())
        for (std::size_t j = 0; j < m.params.size(); ++j) {
            const int p = m.params[j];
            if (!tree.param(p).shape.empty() || tree.param(p).tiedTo >= 0 || r.paramOwner[static_cast<std::size_t>(p)] < 0) continue;
            const int mi = tree.param(p).module;
            ps.push_back({Severity::Error, "$.model.module_tree.modules[" + std::to_string(mi) + "].params[" + std::to_string(j) + "]",
                          "plan.scalar_param",
                          "parameter \"" + tree.param(p).path +
                              "\" is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)"});
        }

    const int shard = plan.mesh.shardSize();
    const bool cpu = plan.mesh.device == Device::Cpu;
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const UnitPolicy& u = plan.units[i];
        const std::string at = "$.units[" + std::to_string(i) + "]";
        if (u.reshard.kind == Reshard::Group && plan.mesh.replicate >= 1 && plan.mesh.worldSize() % plan.mesh.replicate == 0) {
            const int k = u.reshard.group;
            if (k < 1 || shard % k != 0)
                ps.push_back({Severity::Error, at + ".reshard_after_forward", "plan.reshard_k",
                              "reshard_after_forward " + std::to_string(k) + " does not divide the shard group of " +
                                  std::to_string(shard) + " ranks"});
        }
        if (cpu && u.mp.paramDtype == DType::F16)
            ps.push_back({Severity::Error, at + ".mixed_precision.param_dtype", "plan.fp16_cpu",
                          "fp16 compute is not available on cpu; use bf16"});
        if (u.offload && cpu)
            ps.push_back({Severity::Warning, at + ".offload", "plan.offload_cpu",
                          "CPU offload has no effect when the device is already the CPU"});
    }
    // Gloo cannot reduce bf16: the effective reduce dtype (reduce_dtype, else
    // param_dtype) must be fp32 or fp16 on cpu.
    if (cpu && r.valid) {
        for (const ResolvedUnit& u : r.units) {
            if (u.reduceDtype != DType::BF16) continue;
            const std::string at = u.policy >= 0 ? "$.units[" + std::to_string(u.policy) + "].mixed_precision.reduce_dtype" : "$.units";
            ps.push_back({Severity::Error, at, "plan.bf16_reduce_gloo",
                          "Gloo (cpu) cannot reduce gradients in bf16; set reduce_dtype to fp32"});
        }
    }
    if (plan.units.size() > 1 && r.valid) {
        for (std::size_t ui = 1; ui < r.units.size(); ++ui)
            if (r.units[ui].numel == 0 && r.units[ui].policy >= 0)
                ps.push_back({Severity::Warning, "$.units[" + std::to_string(r.units[ui].policy) + "].module",
                              "plan.empty_unit", "unit \"" + plan.units[static_cast<std::size_t>(r.units[ui].policy)].module +
                                                     "\" owns no parameters (its children are all units)"});
    }
    return ps;
}

} // namespace sb
