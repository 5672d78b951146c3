#include "plan.hpp"

#include "resolve.hpp"
#include "size_bound.hpp"

#include "json/json.hpp"


namespace sb {

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
        std::int64_t seq = std::min<std::int64_t>(model.maxSeqLen, 2048);
        if (model.slidingWindow > 0) seq = std::min(seq, model.slidingWindow); // the core attends to the whole sequence
        p.training.seqLen = static_cast<int>(seq);
        p.training.microBatch = 1;
    } else {
        p.training.seqLen = static_cast<int>(model.maxSeqLen);
    }
    return p;
}

void Mesh::validate(Problems& ps) const
{
    auto error = [&](const char* key, ProblemCode code, std::vector<ProblemArg> args = {}) {
        ps.push_back({Severity::Error, JsonPath().key("mesh").key(key), code, std::move(args)});
    };
    if (nodes < 1) error("nodes", ProblemCode::MeshNodes);
    if (procsPerNode < 1) error("procs_per_node", ProblemCode::MeshProcs);
    if (replicate < 1) error("replicate", ProblemCode::MeshReplicate);
    else if (nodes >= 1 && procsPerNode >= 1 && worldSize() % replicate != 0)
        error("replicate", ProblemCode::MeshReplicateDivides, {replicate, worldSize()});
    if (nodes >= 1 && procsPerNode >= 1 && static_cast<long long>(nodes) * procsPerNode > kMaxWorldSize)
        error("nodes", ProblemCode::MeshWorldTooLarge, {static_cast<long long>(nodes) * procsPerNode, kMaxWorldSize});
    if (deviceMemoryBytes == 0) error("device_memory_gib", ProblemCode::MeshMemory);
}

const char* tokenDtypeName(DataConfig::TokenDtype t)
{
    return t == DataConfig::TokenDtype::U16 ? "uint16" : t == DataConfig::TokenDtype::U32 ? "uint32" : "auto";
}

std::optional<DataConfig::TokenDtype> parseTokenDtype(const std::string& name)
{
    for (DataConfig::TokenDtype t : {DataConfig::TokenDtype::Auto, DataConfig::TokenDtype::U16, DataConfig::TokenDtype::U32})
        if (name == tokenDtypeName(t)) return t;
    return std::nullopt;
}

void TrainingConfig::validate(const ModelConfig& model, Problems& ps) const
{
    const JsonPath training = JsonPath().key("training");
    const JsonPath opt = training.key("optimizer");
    auto error = [&](const JsonPath& at, ProblemCode code, std::vector<ProblemArg> args = {}) {
        ps.push_back({Severity::Error, at, code, std::move(args)});
    };
    if (microBatch < 1) error(training.key("micro_batch"), ProblemCode::TrainBatch);
    if (seqLen < 1) error(training.key("seq_len"), ProblemCode::TrainSeq);
    if (gradAccum < 1) error(training.key("grad_accum"), ProblemCode::TrainAccum);
    if (steps < 0) error(training.key("steps"), ProblemCode::TrainSteps);
    if (model.arch != Arch::Imported && !llamaForm(model.arch) && seqLen > model.maxSeqLen)
        error(training.key("seq_len"), ProblemCode::TrainSeqTooLong, {seqLen, model.maxSeqLen});
    if (llamaForm(model.arch) && model.slidingWindow > 0 && seqLen > model.slidingWindow)
        error(JsonPath().key("model").key("sliding_window"), ProblemCode::ModelSlidingWindow, {seqLen, model.slidingWindow});
    if (!(gradClip >= 0)) error(training.key("grad_clip"), ProblemCode::TrainClip);
    const OptimizerConfig& o = optimizer;
    if (!(o.lr > 0 && o.lr < 10)) error(opt.key("lr"), ProblemCode::TrainLr);
    if (!(o.beta1 >= 0 && o.beta1 < 1) || !(o.beta2 >= 0 && o.beta2 < 1)) error(opt.key("betas"), ProblemCode::TrainBetas);
    if (!(o.eps > 0)) error(opt.key("eps"), ProblemCode::TrainEps);
    if (!(o.weightDecay >= 0)) error(opt.key("weight_decay"), ProblemCode::TrainWeightDecay);
    for (std::size_t i = 0; i < o.noDecay.size(); ++i)
        if (o.noDecay[i] != "1d" && o.noDecay[i] != "embeddings")
            error(opt.key("no_decay").index(i), ProblemCode::TrainNoDecay, {o.noDecay[i]});
    if (o.schedule != "constant" && o.schedule != "cosine") error(opt.key("schedule"), ProblemCode::TrainSchedule, {o.schedule});
    if (!(o.minLrRatio >= 0 && o.minLrRatio <= 1)) error(opt.key("min_lr_ratio"), ProblemCode::TrainMinLr);
    if (data.kind != DataConfig::Synthetic && data.path.empty())
        error(training.key("data").key("path"), ProblemCode::TrainDataPath);
    if (checkpoint.interval > 0 && checkpoint.dir.empty())
        error(training.key("checkpoint").key("dir"), ProblemCode::TrainCheckpointDir);
    validateEval(training.key("eval"), ps);
}

void TrainingConfig::validateEval(const JsonPath& at, Problems& ps) const
{
    auto error = [&](const JsonPath& where, ProblemCode code, std::vector<ProblemArg> args = {}) {
        ps.push_back({Severity::Error, where, code, std::move(args)});
    };
    if (eval.batches < 0 || eval.batches > EvalConfig::kMaxBatches) error(at.key("batches"), ProblemCode::TrainEvalBatches);
    if (eval.every < 0) error(at.key("every"), ProblemCode::TrainEvalEvery);
    if (!eval.enabled()) return;
    if (eval.holdout != 0 && !(eval.holdout > 0 && eval.holdout <= 0.5))
        error(at.key("holdout"), ProblemCode::TrainEvalHoldout, {json::formatNumber(eval.holdout)}); // as written: 0.9, not 9.00e-01
    const bool ownFile = !eval.path.empty(), heldOut = eval.holdout != 0;
    if (data.kind == DataConfig::Synthetic) {
        if (ownFile || heldOut) error(at.key(ownFile ? "path" : "holdout"), ProblemCode::TrainEvalSynthetic);
    } else if (ownFile == heldOut) {
        error(at, ProblemCode::TrainEvalSource);
    }
}

namespace {

// Every name and path of a plan: none may hold a control character. A
// preset's newline ended a comment of a batch script and ran its next line
// on a cluster; the same text reaches terminals, logs and the GUI.
void checkNames(const Plan& plan, Problems& ps)
{
    const JsonPath root;
    checkPrintable(plan.name, root.key("name"), "name", ps);
    const JsonPath model = root.key("model");
    checkPrintable(plan.model.preset, model.key("preset"), "preset", ps);
    checkPrintable(plan.model.importedFrom, model.key("imported_from"), "imported_from", ps);
    checkPrintable(plan.mesh.deviceName, root.key("mesh").key("device_name"), "device_name", ps);
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const UnitPolicy& u = plan.units[i];
        const JsonPath at = root.key("units").index(i);
        checkPrintable(u.module, at.key("module"), "module", ps);
        for (const auto& [key, list] : {std::pair<const char*, const std::vector<std::string>*>{"forward_prefetch", &u.forwardPrefetch},
                                        {"backward_prefetch", &u.backwardPrefetch},
                                        {"ignored_params", &u.ignoredParams}})
            for (std::size_t j = 0; j < list->size(); ++j) checkPrintable((*list)[j], at.key(key).index(j), key, ps);
    }
    const JsonPath training = root.key("training");
    checkPrintable(plan.training.data.path, training.key("data").key("path"), "path", ps);
    checkPrintable(plan.training.eval.path, training.key("eval").key("path"), "path", ps);
    checkPrintable(plan.training.checkpoint.dir, training.key("checkpoint").key("dir"), "dir", ps);
}

} // namespace

Problems validatePlan(const Plan& plan, const ModuleTree& tree)
{
    Problems ps;
    checkNames(plan, ps);
    if (plan.version != kPlanFormatVersion)
        ps.push_back({Severity::Error, JsonPath().key("version"), ProblemCode::PlanVersionUnsupported, {plan.version}});
    const std::size_t beforeModel = ps.size();
    plan.model.validate(JsonPath().key("model"), ps);
    const bool sizesOk = ps.size() == beforeModel; // invalid sizes build an empty tree: said once, above
    plan.mesh.validate(ps);
    plan.training.validate(plan.model, ps);
    if (tree.modules().size() <= 1 && tree.params().empty()) {
        if (sizesOk) ps.push_back({Severity::Error, JsonPath().key("model"), ProblemCode::PlanEmptyModel, {}});
        return ps;
    }
    if (const ByteBound bound = planByteBound(plan, tree); !bound.modelled()) {
        // The estimator's 64-bit byte counts could overflow: refuse, naming the larger part.
        if (bound.params >= bound.activations)
            ps.push_back({Severity::Error, JsonPath().key("model"), ProblemCode::PlanTooLarge, {static_cast<double>(bound.params)}});
        else
            ps.push_back({Severity::Error, JsonPath().key("training").key("micro_batch"), ProblemCode::PlanActivationsTooLarge,
                          {static_cast<double>(bound.activations)}});
    }
    ResolvedPlan r = resolvePlan(plan, tree, &ps);

    // fully_shard refuses 0-dim parameters; only an imported tree can have them.
    for (const Module& m : tree.modules())
        for (std::size_t j = 0; j < m.params.size(); ++j) {
            const int p = m.params[j];
            if (!tree.param(p).shape.empty() || tree.param(p).tiedTo >= 0 || r.paramOwner[static_cast<std::size_t>(p)] < 0) continue;
            const int mi = tree.param(p).module;
            ps.push_back({Severity::Error,
                          JsonPath().key("model").key("module_tree").key("modules").index(static_cast<std::size_t>(mi)).key("params").index(j),
                          ProblemCode::PlanScalarParam, {tree.param(p).path}});
        }

    const int shard = plan.mesh.shardSize();
    const bool cpu = plan.mesh.device == Device::Cpu;
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const UnitPolicy& u = plan.units[i];
        const JsonPath at = JsonPath().key("units").index(i);
        if (u.reshard.kind == Reshard::Group && plan.mesh.replicate >= 1 && plan.mesh.worldSize() % plan.mesh.replicate == 0) {
            const int k = u.reshard.group;
            if (k < 1 || shard % k != 0)
                ps.push_back({Severity::Error, at.key("reshard_after_forward"), ProblemCode::PlanReshardK, {k, shard}});
        }
        if (cpu && u.mp.paramDtype == DType::F16)
            ps.push_back({Severity::Error, at.key("mixed_precision").key("param_dtype"), ProblemCode::PlanFp16Cpu, {}});
        if (u.offload && cpu)
            ps.push_back({Severity::Warning, at.key("offload"), ProblemCode::PlanOffloadCpu, {}});
    }
    // Gloo cannot reduce bf16: the effective reduce dtype (reduce_dtype, else
    // param_dtype) must be fp32 or fp16 on cpu.
    if (cpu && r.valid) {
        for (const ResolvedUnit& u : r.units) {
            if (u.reduceDtype != DType::BF16) continue;
            const JsonPath units = JsonPath().key("units");
            const JsonPath at = u.policy >= 0 ? units.index(static_cast<std::size_t>(u.policy)).key("mixed_precision").key("reduce_dtype") : units;
            ps.push_back({Severity::Error, at, ProblemCode::PlanBf16ReduceGloo, {}});
        }
    }
    if (plan.units.size() > 1 && r.valid) {
        for (std::size_t ui = 1; ui < r.units.size(); ++ui)
            if (r.units[ui].numel == 0 && r.units[ui].policy >= 0) {
                const auto policy = static_cast<std::size_t>(r.units[ui].policy);
                ps.push_back({Severity::Warning, JsonPath().key("units").index(policy).key("module"), ProblemCode::PlanEmptyUnit,
                              {plan.units[policy].module}});
            }
    }
    return ps;
}

} // namespace sb
