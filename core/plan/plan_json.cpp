#include "plan_json.hpp"

#include "plan_limits.hpp"
#include "util/atomic_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <unordered_set>

namespace sb {

namespace {

json::Value dtypeOrNull(const std::optional<DType>& t)
{
    return t ? json::Value(dtypeName(*t)) : json::Value();
}

json::Value strings(const std::vector<std::string>& v)
{
    json::Value a = json::Value::array();
    for (const std::string& s : v) a.push(s);
    return a;
}

json::Value reshardJson(const Reshard& r)
{
    switch (r.kind) {
    case Reshard::Default: return "default";
    case Reshard::True: return true;
    case Reshard::False: return false;
    case Reshard::Group: return r.group;
    }
    return "default";
}

const char* dataKindName(DataConfig::Kind k)
{
    switch (k) {
    case DataConfig::Synthetic: return "synthetic";
    case DataConfig::Tokens: return "tokens";
    case DataConfig::Text: return "text";
    }
    return "synthetic";
}

} // namespace

json::Value planToJson(const Plan& p)
{
    json::Value root = json::Value::object();
    root.set("format", "shardbench-plan");
    root.set("version", p.version);
    root.set("name", p.name);

    json::Value model = json::Value::object();
    model.set("preset", p.model.preset);
    model.set("arch", archName(p.model.arch));
    if (p.model.arch == Arch::Imported) {
        model.set("imported_from", p.model.importedFrom);
        model.set("module_tree", p.model.importedTree);
    } else {
        model.set("vocab_size", p.model.vocabSize);
        model.set("dim", p.model.dim);
        model.set("n_layers", p.model.nLayers);
        model.set("n_heads", p.model.nHeads);
        model.set("n_kv_heads", p.model.nKvHeads);
        model.set("ffn_hidden", p.model.ffnHidden);
        model.set("max_seq_len", p.model.maxSeqLen);
        model.set("tied_embeddings", p.model.tiedEmbeddings);
        // Written where they can differ from ModelConfig's defaults: a reader
        // (the exported script's users, a Python tool) need not know the presets.
        const ModelConfig base = presetConfig(p.model.preset).value_or(ModelConfig());
        if (llamaForm(p.model.arch) || p.model.ropeTheta != ModelConfig().ropeTheta) model.set("rope_theta", p.model.ropeTheta);
        if (p.model.ropeScaling.llama3) model.set("rope_scaling", ropeScalingJson(p.model.ropeScaling));
        if (p.model.explicitHeadDim != 0 || base.explicitHeadDim != 0) model.set("head_dim", p.model.explicitHeadDim);
        if (p.model.normEps != ModelConfig().normEps || base.normEps != ModelConfig().normEps) model.set("norm_eps", p.model.normEps);
        if (p.model.slidingWindow != 0 || base.slidingWindow != 0) model.set("sliding_window", p.model.slidingWindow);
        model.set("dtype", dtypeName(p.model.dtype));
    }
    root.set("model", model);

    json::Value mesh = json::Value::object();
    mesh.set("nodes", p.mesh.nodes);
    mesh.set("procs_per_node", p.mesh.procsPerNode);
    mesh.set("replicate", p.mesh.replicate);
    mesh.set("device", p.mesh.device == Device::Cuda ? "cuda" : "cpu");
    mesh.set("device_name", p.mesh.deviceName);
    mesh.set("device_memory_gib", static_cast<double>(p.mesh.deviceMemoryBytes) / static_cast<double>(kGiB));
    if (p.mesh.hostMemoryBytes)
        mesh.set("host_memory_gib", static_cast<double>(p.mesh.hostMemoryBytes) / static_cast<double>(kGiB));
    root.set("mesh", mesh);

    json::Value units = json::Value::array();
    for (const UnitPolicy& u : p.units) {
        json::Value ju = json::Value::object();
        ju.set("module", u.module);
        ju.set("reshard_after_forward", reshardJson(u.reshard));
        json::Value mp = json::Value::object();
        mp.set("param_dtype", dtypeOrNull(u.mp.paramDtype));
        mp.set("reduce_dtype", dtypeOrNull(u.mp.reduceDtype));
        mp.set("output_dtype", dtypeOrNull(u.mp.outputDtype));
        mp.set("cast_forward_inputs", u.mp.castForwardInputs);
        ju.set("mixed_precision", mp);
        ju.set("offload", u.offload);
        ju.set("activation_checkpointing", u.ac == Checkpointing::Full ? "full" : "none");
        if (!u.forwardPrefetch.empty()) ju.set("forward_prefetch", strings(u.forwardPrefetch));
        if (!u.backwardPrefetch.empty()) ju.set("backward_prefetch", strings(u.backwardPrefetch));
        if (!u.ignoredParams.empty()) ju.set("ignored_params", strings(u.ignoredParams));
        units.push(ju);
    }
    root.set("units", units);

    const TrainingConfig& t = p.training;
    json::Value tr = json::Value::object();
    tr.set("micro_batch", t.microBatch);
    tr.set("seq_len", t.seqLen);
    tr.set("grad_accum", t.gradAccum);
    tr.set("steps", t.steps);
    tr.set("seed", static_cast<long long>(t.seed));
    tr.set("grad_clip", t.gradClip);
    json::Value opt = json::Value::object();
    opt.set("name", "adamw");
    opt.set("lr", t.optimizer.lr);
    opt.set("betas", json::Value(json::Array{t.optimizer.beta1, t.optimizer.beta2}));
    opt.set("eps", t.optimizer.eps);
    opt.set("weight_decay", t.optimizer.weightDecay);
    if (!t.optimizer.noDecay.empty()) {
        json::Array names;
        for (const std::string& n : t.optimizer.noDecay) names.emplace_back(n);
        opt.set("no_decay", json::Value(std::move(names)));
    }
    opt.set("warmup_steps", t.optimizer.warmupSteps);
    opt.set("schedule", t.optimizer.schedule);
    opt.set("min_lr_ratio", t.optimizer.minLrRatio);
    tr.set("optimizer", opt);
    json::Value data = json::Value::object();
    data.set("kind", dataKindName(t.data.kind));
    if (!t.data.path.empty()) data.set("path", t.data.path);
    if (t.data.dtype != DataConfig::TokenDtype::Auto) data.set("dtype", tokenDtypeName(t.data.dtype));
    tr.set("data", data);
    if (t.eval.enabled()) {
        json::Value ev = json::Value::object();
        ev.set("every", t.eval.every);
        ev.set("batches", t.eval.batches);
        if (!t.eval.path.empty()) ev.set("path", t.eval.path);
        if (t.eval.dtype != DataConfig::TokenDtype::Auto) ev.set("dtype", tokenDtypeName(t.eval.dtype));
        if (t.eval.holdout != 0) ev.set("holdout", t.eval.holdout);
        tr.set("eval", ev);
    }
    json::Value ck = json::Value::object();
    ck.set("dir", t.checkpoint.dir);
    ck.set("interval", t.checkpoint.interval);
    ck.set("keep", t.checkpoint.keep);
    ck.set("async", t.checkpoint.async);
    tr.set("checkpoint", ck);
    root.set("training", tr);
    return root;
}

std::string planToString(const Plan& plan)
{
    return planToJson(plan).dump(2) + "\n";
}

namespace {

// Reads typed fields from one JSON object, recording a problem with its path
// for each wrong one and a warning for each key nobody asked for.
class Fields {
public:
    Fields(const json::Value* obj, JsonPath path, Problems& ps) : obj_(obj), path_(std::move(path)), ps_(ps)
    {
        if (obj_ && !obj_->isObject()) {
            error(path_, ProblemCode::PlanType);
            obj_ = nullptr;
        }
    }
    ~Fields()
    {
        if (!obj_) return;
        std::size_t unknown = 0;
        for (const auto& [key, value] : obj_->asObject()) {
            bool known = false;
            for (const std::string& k : used_) known = known || k == key;
            if (!known && ++unknown <= kMaxUnknownWarnings)
                ps_.push_back({Severity::Warning, path_.key(key), ProblemCode::PlanUnknownField, {key}});
        }
        if (unknown > kMaxUnknownWarnings) // a file of a million stray keys gets one line for the rest, not a million
            ps_.push_back({Severity::Warning, path_, ProblemCode::PlanUnknownFields, {unknown - kMaxUnknownWarnings}});
    }
    Fields(const Fields&) = delete;
    Fields& operator=(const Fields&) = delete;

    const json::Value* get(const std::string& key)
    {
        used_.push_back(key);
        return obj_ ? obj_->find(key) : nullptr;
    }
    JsonPath at(const std::string& key) const { return path_.key(key); }
    const JsonPath& path() const { return path_; }

    void error(const JsonPath& path, ProblemCode code, std::vector<ProblemArg> args = {})
    {
        ps_.push_back({Severity::Error, path, code, std::move(args)});
    }

    template <typename Int>
    void integer(const std::string& key, Int& out, long long min, long long max)
    {
        const json::Value* v = get(key);
        if (!v) return;
        if (!v->isInteger() || v->asInt() < min || v->asInt() > max) {
            error(at(key), ProblemCode::PlanInteger, {key, min, max, v->dump()});
            return;
        }
        out = static_cast<Int>(v->asInt());
    }
    void number(const std::string& key, double& out)
    {
        const json::Value* v = get(key);
        if (!v) return;
        if (!v->isNumber() || !std::isfinite(v->asDouble())) {
            error(at(key), ProblemCode::PlanNumber, {key, v->dump()});
            return;
        }
        out = v->asDouble();
    }
    void boolean(const std::string& key, bool& out)
    {
        const json::Value* v = get(key);
        if (!v) return;
        if (!v->isBool()) {
            error(at(key), ProblemCode::PlanBool, {key, v->dump()});
            return;
        }
        out = v->asBool();
    }
    void string(const std::string& key, std::string& out)
    {
        const json::Value* v = get(key);
        if (!v) return;
        if (!v->isString()) {
            error(at(key), ProblemCode::PlanString, {key, v->dump()});
            return;
        }
        out = v->asString();
    }
    void stringList(const std::string& key, std::vector<std::string>& out)
    {
        const json::Value* v = get(key);
        if (!v) return;
        bool ok = v->isArray();
        if (ok)
            for (const json::Value& s : v->asArray()) ok = ok && s.isString();
        if (!ok) {
            error(at(key), ProblemCode::PlanStringList, {key});
            return;
        }
        out.clear();
        for (const json::Value& s : v->asArray()) out.push_back(s.asString());
    }
    void tokenDtype(const std::string& key, DataConfig::TokenDtype& out)
    {
        std::string name = "auto";
        string(key, name);
        if (const auto t = parseTokenDtype(name)) out = *t;
        else error(at(key), ProblemCode::PlanDataDtype, {name});
    }
    void dtype(const std::string& key, std::optional<DType>& out)
    {
        const json::Value* v = get(key);
        if (!v || v->isNull()) {
            if (v) out.reset();
            return;
        }
        auto t = v->isString() ? parseDType(v->asString()) : std::nullopt;
        if (!t) {
            error(at(key), ProblemCode::PlanDtype, {v->dump()});
            return;
        }
        out = t;
    }

private:
    static constexpr std::size_t kMaxUnknownWarnings = 20;
    const json::Value* obj_;
    JsonPath path_;
    Problems& ps_;
    std::vector<std::string> used_;
};

// model.rope_scaling, in Hugging Face's names; its ranges are ModelConfig::validate's.
void readRopeScaling(const json::Value* v, const JsonPath& path, RopeScaling& rs, Problems& ps)
{
    Fields f(v, path, ps);
    std::string type;
    f.string("rope_type", type);
    if (type != "llama3") { // on the whole object: the workbench keeps it as written (kept_values.cpp)
        f.error(path, ProblemCode::ModelRopeScalingType, {type});
        return;
    }
    rs.llama3 = true;
    f.number("factor", rs.factor);
    f.number("low_freq_factor", rs.lowFreqFactor);
    f.number("high_freq_factor", rs.highFreqFactor);
    f.integer("original_max_position_embeddings", rs.originalMaxPositions, 1, 1ll << 40);
}

void readModel(const json::Value* v, ModelConfig& m, Problems& ps)
{
    Fields f(v, JsonPath().key("model"), ps);
    std::string preset = m.preset;
    f.string("preset", preset);
    std::string arch;
    f.string("arch", arch);
    if (!preset.empty() && preset != "imported") {
        if (auto base = presetConfig(preset)) {
            m = *base;
        } else if (!parseArch(arch)) {
            std::string names;
            for (const PresetInfo& p : modelPresets()) names += (names.empty() ? "" : ", ") + p.name;
            f.error(f.at("preset"), ProblemCode::PlanPreset, {preset, names});
        }
        m.preset = preset;
    } else if (preset == "imported") {
        m.preset = preset;
        m.arch = Arch::Imported;
    }
    if (!arch.empty()) {
        if (auto a = parseArch(arch)) m.arch = *a;
        else f.error(f.at("arch"), ProblemCode::PlanArch, {arch});
    }
    const long long big = plan_limits::kMaxModelSize;
    f.integer("vocab_size", m.vocabSize, 1, big);
    f.integer("dim", m.dim, 1, big);
    f.integer("n_layers", m.nLayers, 1, plan_limits::kMaxLayers);
    f.integer("n_heads", m.nHeads, 1, big);
    f.integer("n_kv_heads", m.nKvHeads, 1, big);
    f.integer("ffn_hidden", m.ffnHidden, 1, big);
    f.integer("max_seq_len", m.maxSeqLen, 1, big);
    f.boolean("tied_embeddings", m.tiedEmbeddings);
    f.number("rope_theta", m.ropeTheta);
    if (const json::Value* rs = f.get("rope_scaling")) {
        if (rs->isNull()) m.ropeScaling = RopeScaling{}; // null: plain RoPE, whatever the preset has
        else readRopeScaling(rs, f.at("rope_scaling"), m.ropeScaling, ps);
    }
    f.integer("head_dim", m.explicitHeadDim, 0, big); // 0: dim / n_heads
    f.number("norm_eps", m.normEps);
    f.integer("sliding_window", m.slidingWindow, 0, big); // 0: none
    std::optional<DType> dt = m.dtype;
    f.dtype("dtype", dt);
    if (dt) m.dtype = *dt;
    f.string("imported_from", m.importedFrom);
    if (const json::Value* tree = f.get("module_tree")) m.importedTree = *tree;
    if (m.arch == Arch::Imported && m.importedTree.isNull())
        f.error(f.at("module_tree"), ProblemCode::PlanModuleTree);
}

void readMesh(const json::Value* v, Mesh& m, Problems& ps)
{
    Fields f(v, JsonPath().key("mesh"), ps);
    f.integer("nodes", m.nodes, 1, plan_limits::kMaxNodes);
    f.integer("procs_per_node", m.procsPerNode, 1, plan_limits::kMaxProcsPerNode);
    f.integer("replicate", m.replicate, 1, plan_limits::kMaxReplicate);
    std::string device = m.device == Device::Cuda ? "cuda" : "cpu";
    f.string("device", device);
    if (device == "cpu") m.device = Device::Cpu;
    else if (device == "cuda") m.device = Device::Cuda;
    else f.error(f.at("device"), ProblemCode::PlanDevice, {device});
    f.string("device_name", m.deviceName);
    auto gib = [&](const char* key, std::uint64_t& out) {
        double g = static_cast<double>(out) / static_cast<double>(kGiB);
        f.number(key, g);
        if (g < 0 || g > plan_limits::kMaxMemoryGiB) f.error(f.at(key), ProblemCode::PlanMemory, {key});
        else out = static_cast<std::uint64_t>(std::llround(g * static_cast<double>(kGiB)));
    };
    gib("device_memory_gib", m.deviceMemoryBytes);
    gib("host_memory_gib", m.hostMemoryBytes);
    int world = -1;
    f.integer("world_size", world, 1, plan_limits::kMaxWorldSize);
    if (world > 0 && world != m.worldSize())
        f.error(f.at("world_size"), ProblemCode::PlanWorldSize, {world, m.nodes, m.procsPerNode, m.worldSize()});
}

void readUnit(const json::Value& v, const JsonPath& path, UnitPolicy& u, Problems& ps)
{
    if (!v.isObject()) { // one problem, not one per missing field
        ps.push_back({Severity::Error, path, ProblemCode::PlanUnitType, {}});
        return;
    }
    Fields f(&v, path, ps);
    const json::Value* module = f.get("module");
    if (!module || !module->isString())
        f.error(f.at("module"), ProblemCode::PlanUnitModule);
    else
        u.module = module->asString();
    if (const json::Value* r = f.get("reshard_after_forward")) {
        if (r->isBool()) u.reshard = {r->asBool() ? Reshard::True : Reshard::False, 0};
        else if (r->isString() && r->asString() == "default") u.reshard = {Reshard::Default, 0};
        else if (r->isInteger() && r->asInt() >= 1 && r->asInt() <= plan_limits::kMaxReshardGroup) u.reshard = {Reshard::Group, static_cast<int>(r->asInt())};
        else f.error(f.at("reshard_after_forward"), ProblemCode::PlanReshard, {r->dump()});
    }
    if (const json::Value* mpv = f.get("mixed_precision")) {
        Fields mp(mpv, f.at("mixed_precision"), ps);
        mp.dtype("param_dtype", u.mp.paramDtype);
        mp.dtype("reduce_dtype", u.mp.reduceDtype);
        mp.dtype("output_dtype", u.mp.outputDtype);
        mp.boolean("cast_forward_inputs", u.mp.castForwardInputs);
    }
    f.boolean("offload", u.offload);
    if (const json::Value* ac = f.get("activation_checkpointing")) {
        if (ac->isBool()) u.ac = ac->asBool() ? Checkpointing::Full : Checkpointing::None;
        else if (ac->isString() && ac->asString() == "full") u.ac = Checkpointing::Full;
        else if (ac->isString() && ac->asString() == "none") u.ac = Checkpointing::None;
        else f.error(f.at("activation_checkpointing"), ProblemCode::PlanActivationCheckpointing, {ac->dump()});
    }
    f.stringList("forward_prefetch", u.forwardPrefetch);
    f.stringList("backward_prefetch", u.backwardPrefetch);
    f.stringList("ignored_params", u.ignoredParams);
}

void readTraining(const json::Value* v, TrainingConfig& t, Problems& ps)
{
    Fields f(v, JsonPath().key("training"), ps);
    f.integer("micro_batch", t.microBatch, 1, plan_limits::kMaxMicroBatch);
    f.integer("seq_len", t.seqLen, 1, plan_limits::kMaxSeqLen);
    f.integer("grad_accum", t.gradAccum, 1, plan_limits::kMaxGradAccum);
    f.integer("steps", t.steps, 0, plan_limits::kMaxSteps);
    long long seed = static_cast<long long>(t.seed);
    f.integer("seed", seed, 0, plan_limits::kMaxSeed);
    t.seed = static_cast<std::uint64_t>(seed);
    f.number("grad_clip", t.gradClip);
    if (const json::Value* ov = f.get("optimizer")) {
        Fields o(ov, f.at("optimizer"), ps);
        std::string name = "adamw";
        o.string("name", name);
        if (name != "adamw") o.error(o.at("name"), ProblemCode::PlanOptimizer, {name});
        o.number("lr", t.optimizer.lr);
        if (const json::Value* b = o.get("betas")) {
            if (b->isArray() && b->size() == 2 && b->asArray()[0].isNumber() && b->asArray()[1].isNumber()) {
                t.optimizer.beta1 = b->asArray()[0].asDouble();
                t.optimizer.beta2 = b->asArray()[1].asDouble();
            } else {
                o.error(o.at("betas"), ProblemCode::PlanBetas);
            }
        }
        o.number("eps", t.optimizer.eps);
        o.number("weight_decay", t.optimizer.weightDecay);
        o.stringList("no_decay", t.optimizer.noDecay);
        o.integer("warmup_steps", t.optimizer.warmupSteps, 0, plan_limits::kMaxSteps);
        o.string("schedule", t.optimizer.schedule);
        o.number("min_lr_ratio", t.optimizer.minLrRatio);
    }
    if (const json::Value* dv = f.get("data")) {
        Fields d(dv, f.at("data"), ps);
        std::string kind = "synthetic";
        d.string("kind", kind);
        if (kind == "synthetic") t.data.kind = DataConfig::Synthetic;
        else if (kind == "tokens") t.data.kind = DataConfig::Tokens;
        else if (kind == "text") t.data.kind = DataConfig::Text;
        else d.error(d.at("kind"), ProblemCode::PlanDataKind, {kind});
        d.string("path", t.data.path);
        d.tokenDtype("dtype", t.data.dtype);
    }
    if (const json::Value* ev = f.get("eval")) {
        Fields e(ev, f.at("eval"), ps);
        t.eval.batches = plan_limits::kDefaultEvalBatches; // an "eval" object turns the validation loss on
        e.integer("every", t.eval.every, 0, plan_limits::kMaxSteps);
        e.integer("batches", t.eval.batches, 0, EvalConfig::kMaxBatches);
        e.string("path", t.eval.path);
        e.tokenDtype("dtype", t.eval.dtype);
        e.number("holdout", t.eval.holdout);
    }
    if (const json::Value* cv = f.get("checkpoint")) {
        Fields c(cv, f.at("checkpoint"), ps);
        c.string("dir", t.checkpoint.dir);
        c.integer("interval", t.checkpoint.interval, 0, plan_limits::kMaxSteps);
        c.integer("keep", t.checkpoint.keep, 1, plan_limits::kMaxCheckpointsKept);
        c.boolean("async", t.checkpoint.async);
    }
}

} // namespace

PlanReadResult planFromJson(const json::Value& v)
{
    PlanReadResult r;
    Plan& p = r.plan;
    p.units.clear();
    Problems& ps = r.problems;
    if (!v.isObject()) {
        ps.push_back({Severity::Error, JsonPath(), ProblemCode::PlanNotObject, {}});
        p.root();
        return r;
    }
    Fields f(&v, JsonPath(), ps);
    std::string format;
    f.string("format", format);
    if (format != "shardbench-plan")
        f.error(f.at("format"), ProblemCode::PlanFormat);
    const json::Value* ver = f.get("version");
    if (!ver || !ver->isInteger()) {
        f.error(f.at("version"), ProblemCode::PlanVersionMissing);
    } else if (ver->asInt() != kPlanFormatVersion) {
        f.error(f.at("version"), ProblemCode::PlanVersion, {ver->asInt(), kPlanFormatVersion});
    }
    f.string("name", p.name);
    readModel(f.get("model"), p.model, ps);
    readMesh(f.get("mesh"), p.mesh, ps);
    if (const json::Value* units = f.get("units")) {
        if (!units->isArray()) {
            f.error(f.at("units"), ProblemCode::PlanUnits);
        } else {
            for (std::size_t i = 0; i < units->size(); ++i) {
                UnitPolicy u;
                readUnit(units->asArray()[i], f.at("units").index(i), u, ps);
                p.units.push_back(std::move(u));
            }
        }
    }
    p.root();
    readTraining(f.get("training"), p.training, ps);
    return r;
}

PlanReadResult planFromString(const std::string& text)
{
    json::ParseResult parsed = json::parse(text);
    if (!parsed) {
        PlanReadResult r;
        r.plan.units.clear();
        r.plan.root();
        r.problems.push_back({Severity::Error, JsonPath(), ProblemCode::PlanSyntax, {parsed.error.toString()}});
        return r;
    }
    return planFromJson(*parsed.value);
}

PlanReadResult loadPlanFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        PlanReadResult r;
        r.problems.push_back({Severity::Error, JsonPath(), ProblemCode::PlanFileUnreadable, {path, std::strerror(errno)}});
        return r;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (ss.str().size() > (64u << 20)) {
        PlanReadResult r;
        r.problems.push_back({Severity::Error, JsonPath(), ProblemCode::PlanFileTooLarge, {path}});
        return r;
    }
    return planFromString(ss.str());
}

Status savePlanFile(const Plan& plan, const std::string& path)
{
    return writeFileAtomic(path, planToString(plan));
}

LoadedPlan validateLoaded(PlanReadResult read)
{
    LoadedPlan out;
    out.plan = std::move(read.plan);
    out.problems = std::move(read.problems);
    // Report everything at once, but what was already refused (a field, or
    // the object holding it) is not reported a second time. Looked up by path
    // prefix, so the cost is linear in the number of problems.
    std::unordered_set<std::string> refused;
    for (const Problem& q : out.problems)
        if (q.severity == Severity::Error) refused.insert(q.path.str());
    auto add = [&](Problem p) {
        const std::string path = p.path.str();
        for (std::size_t end = 0; end <= path.size(); ++end)
            if ((end == path.size() || path[end] == '.' || path[end] == '[') && refused.count(path.substr(0, end))) return;
        if (p.severity == Severity::Error) refused.insert(path);
        out.problems.push_back(std::move(p));
    };
    Problems treeProblems;
    out.tree = buildModuleTree(out.plan.model, &treeProblems);
    for (Problem& p : treeProblems) add(std::move(p));
    const bool treeFailed = out.plan.model.arch == Arch::Imported && out.tree->params().empty() && hasErrors(treeProblems);
    for (Problem& p : validatePlan(out.plan, *out.tree))
        if (!(treeFailed && p.code == ProblemCode::PlanEmptyModel)) add(std::move(p)); // the tree's own problems say why
    return out;
}

LoadedPlan loadAndValidate(const std::string& path)
{
    return validateLoaded(loadPlanFile(path));
}

} // namespace sb
