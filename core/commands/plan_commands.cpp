#include "plan_commands.hpp"

#include "args.hpp"
#include "command_exit.hpp"

#include "estimate/estimate.hpp"
#include "estimate/estimate_report.hpp"
#include "export/fsdp2_script.hpp"
#include "hf/hf_config.hpp"
#include "plan/plan_limits.hpp"
#include "plan/plan_json.hpp"
#include "plan/resolve.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sb::cli {

namespace {

int usageError(std::ostream& err, const std::string& msg, const char* usage)
{
    err << "shardbench-cli: " << msg << "\nusage: " << usage << "\n";
    return kExitBadInput;
}

void printProblems(std::ostream& err, const std::string& file, const Problems& ps)
{
    for (const Problem& p : ps) err << file << ": " << formatProblem(p) << "\n";
}

// Loads and validates; prints problems; returns false when errors remain.
bool loadValid(const std::string& path, LoadedPlan& out, std::ostream& err)
{
    out = loadAndValidate(path);
    printProblems(err, path, out.problems);
    return out.ok();
}

bool writeText(const std::string& path, const std::string& text, std::ostream& err)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f || !(f << text) || !f.flush()) {
            err << "shardbench-cli: cannot write " << path << ": " << std::strerror(errno) << "\n";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        err << "shardbench-cli: cannot write " << path << ": " << std::strerror(errno) << "\n";
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

} // namespace

const char* const kPlanUsage =
    "shardbench-cli plan --preset NAME [--vocab N --dim N --layers N --heads N --kv-heads N --head-dim N --ffn N --max-seq N]\n"
    "       [--import TREE.json | --from-hf HF_DIR] [--nodes N --procs-per-node M --replicate R --device cpu|cuda --device-memory GIB]\n"
    "       [--units blocks|root] [--param-dtype T --reduce-dtype T --output-dtype T --reshard true|false|K\n"
    "       --ac none|full --offload] [--batch B --seq S --accum A --steps N --seed N --lr X\n"
    "       --no-decay 1d,embeddings]\n"
    "       [--data synthetic|tokens|text --data-path FILE|'PATTERN*' --data-dtype uint16|uint32 --checkpoint-dir DIR --checkpoint-interval N]\n"
    "       [--val-data-path FILE --val-data-dtype uint16|uint32 | --val-holdout FRACTION] [--eval-every N --eval-batches N]\n"
    "       [--name NAME] -o PLAN.json";
const char* const kValidateUsage = "shardbench-cli validate PLAN.json";
const char* const kEstimateUsage = "shardbench-cli estimate PLAN.json [--json] [--timeline] [--csv] [--max-batch]";
const char* const kExportScriptUsage = "shardbench-cli export-script PLAN.json -o train.py";
const char* const kPresetsUsage = "shardbench-cli presets   (each preset's name, parameter count and description)";

int cmdPlan(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv,
           {"--preset", "--vocab", "--dim", "--layers", "--heads", "--kv-heads", "--head-dim", "--ffn", "--max-seq", "--import",
            "--from-hf", "--nodes", "--procs-per-node", "--replicate", "--device", "--device-memory", "--units", "--param-dtype",
            "--reduce-dtype", "--output-dtype", "--reshard", "--ac", "--batch", "--seq", "--accum", "--steps",
            "--seed", "--lr", "--no-decay", "--data", "--data-path", "--data-dtype", "--val-data-path", "--val-data-dtype",
            "--val-holdout", "--eval-every", "--eval-batches", "--checkpoint-dir", "--checkpoint-interval", "--name", "-o",
            "--output"},
           {"--offload", "--tied"});
    if (!a.ok()) return usageError(err, a.error(), kPlanUsage);
    if (!a.positional().empty()) return usageError(err, "unexpected argument \"" + a.positional()[0] + "\"", kPlanUsage);
    auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (!output) return usageError(err, "missing -o PLAN.json", kPlanUsage);

    ModelConfig model;
    if (a.has("--from-hf") && (a.has("--import") || a.has("--preset")))
        return usageError(err, "--from-hf takes the model from config.json: not with --import or --preset", kPlanUsage);
    if (auto hfDir = a.value("--from-hf")) {
        Result<ModelConfig> hf = hf::modelFromConfig(*hfDir);
        if (!hf) {
            err << hf.error() << "\n";
            return kExitBadInput;
        }
        model = std::move(hf).value();
        model.maxSeqLen = a.integer("--max-seq", model.maxSeqLen, 1, plan_limits::kMaxSeqLen);
    } else if (auto imp = a.value("--import")) {
        std::ifstream f(*imp, std::ios::binary);
        if (!f) return usageError(err, "cannot read " + *imp + ": " + std::strerror(errno), kPlanUsage);
        std::stringstream ss;
        ss << f.rdbuf();
        json::ParseResult parsed = json::parse(ss.str());
        if (!parsed) {
            err << *imp << ": invalid JSON at " << parsed.error.toString() << "\n";
            return kExitBadInput;
        }
        model.preset = "imported";
        model.arch = Arch::Imported;
        model.importedTree = *parsed.value;
        model.importedFrom = *imp;
        if (const json::Value* cls = parsed.value->find("model_class"); cls && cls->isString())
            model.importedFrom = cls->asString() + " (" + *imp + ")";
        Problems ps;
        ModuleTree t;
        if (!moduleTreeFromJson(model.importedTree, JsonPath(), t, ps)) {
            printProblems(err, *imp, ps);
            return kExitBadInput;
        }
    } else {
        const std::string preset = a.value("--preset").value_or("transformer");
        auto base = presetConfig(preset);
        if (!base) {
            std::string names;
            for (const PresetInfo& p : modelPresets()) names += " " + p.name;
            return usageError(err, "unknown preset \"" + preset + "\"; known:" + names, kPlanUsage);
        }
        model = *base;
        using namespace plan_limits;
        model.vocabSize = a.integer("--vocab", model.vocabSize, 1, kMaxVocab);
        model.dim = a.integer("--dim", model.dim, 1, kMaxDim);
        model.nLayers = a.integer("--layers", model.nLayers, 1, kMaxLayers);
        model.nHeads = a.integer("--heads", model.nHeads, 1, kMaxHeads);
        model.nKvHeads = a.integer("--kv-heads", a.has("--heads") && !llamaForm(model.arch) ? model.nHeads : model.nKvHeads, 1, kMaxHeads);
        model.explicitHeadDim = a.integer("--head-dim", model.explicitHeadDim, 0, kMaxHeadDim); // 0: dim / heads
        model.ffnHidden = a.integer("--ffn", a.has("--dim") && !llamaForm(model.arch) ? 4 * model.dim : model.ffnHidden, 1, kMaxFfn);
        model.maxSeqLen = a.integer("--max-seq", model.maxSeqLen, 1, kMaxSeqLen);
        if (a.has("--tied")) model.tiedEmbeddings = true;
    }

    Plan plan = defaultPlan(model);
    if (auto n = a.value("--name")) plan.name = *n;
    Mesh& mesh = plan.mesh;
    mesh.nodes = static_cast<int>(a.integer("--nodes", mesh.nodes, 1, plan_limits::kMaxNodes));
    mesh.procsPerNode = static_cast<int>(a.integer("--procs-per-node", mesh.procsPerNode, 1, plan_limits::kMaxProcsPerNode));
    mesh.replicate = static_cast<int>(a.integer("--replicate", mesh.replicate, 1, plan_limits::kMaxReplicate));
    if (auto d = a.value("--device")) {
        if (*d == "cpu") {
            mesh.device = Device::Cpu;
            mesh.deviceName = "CPU RAM";
            mesh.deviceMemoryBytes = 16 * kGiB;
        } else if (*d == "cuda") {
            mesh.device = Device::Cuda;
            mesh.deviceName = "H100 80GB";
            mesh.deviceMemoryBytes = 80 * kGiB;
        } else {
            return usageError(err, "--device must be cpu or cuda, got \"" + *d + "\"", kPlanUsage);
        }
    }
    if (a.has("--device-memory")) {
        const double gib = a.number("--device-memory", 0);
        if (!(gib > 0)) return usageError(err, "--device-memory must be a positive number of GiB", kPlanUsage);
        mesh.deviceMemoryBytes = static_cast<std::uint64_t>(std::llround(gib * static_cast<double>(kGiB)));
        mesh.deviceName = "custom";
    }
    if (auto units = a.value("--units")) {
        if (*units == "root") {
            plan.units.erase(plan.units.begin() + 1, plan.units.end());
        } else if (*units != "blocks") {
            return usageError(err, "--units must be blocks or root", kPlanUsage);
        }
    }

    // Policies apply to every unit; --reshard leaves the root at its FSDP2 default.
    for (UnitPolicy& u : plan.units) {
        auto dtypeOpt = [&](const char* opt, std::optional<DType>& target) {
            if (auto v = a.value(opt)) {
                auto t = parseDType(*v);
                if (!t) return false;
                target = t;
            }
            return true;
        };
        if (!dtypeOpt("--param-dtype", u.mp.paramDtype) || !dtypeOpt("--reduce-dtype", u.mp.reduceDtype) ||
            !dtypeOpt("--output-dtype", u.mp.outputDtype))
            return usageError(err, "dtypes must be fp32, bf16, fp16 or fp64", kPlanUsage);
        // Gloo cannot reduce bf16: on cpu a bf16 param dtype reduces in fp32 unless told otherwise.
        if (mesh.device == Device::Cpu && u.mp.paramDtype == DType::BF16 && !a.has("--reduce-dtype"))
            u.mp.reduceDtype = DType::F32;
        if (auto r = a.value("--reshard"); r && !u.module.empty()) {
            if (*r == "true") u.reshard = {Reshard::True, 0};
            else if (*r == "false") u.reshard = {Reshard::False, 0};
            else if (*r == "default") u.reshard = {Reshard::Default, 0};
            else {
                char* end = nullptr;
                const long k = std::strtol(r->c_str(), &end, 10);
                if (r->empty() || *end || k < 1 || k > plan_limits::kMaxReshardGroup)
                    return usageError(err, "--reshard must be true, false, default or a positive integer", kPlanUsage);
                u.reshard = {Reshard::Group, static_cast<int>(k)};
            }
        }
        if (auto ac = a.value("--ac"); ac && !u.module.empty()) {
            if (*ac == "full") u.ac = Checkpointing::Full;
            else if (*ac == "none") u.ac = Checkpointing::None;
            else return usageError(err, "--ac must be none or full", kPlanUsage);
        }
        if (a.has("--offload")) u.offload = true;
    }

    TrainingConfig& t = plan.training;
    t.microBatch = static_cast<int>(a.integer("--batch", t.microBatch, 1, plan_limits::kMaxMicroBatch));
    t.seqLen = static_cast<int>(a.integer("--seq", t.seqLen, 1, plan_limits::kMaxSeqLen));
    t.gradAccum = static_cast<int>(a.integer("--accum", t.gradAccum, 1, plan_limits::kMaxGradAccum));
    t.steps = static_cast<int>(a.integer("--steps", t.steps, 0, plan_limits::kMaxSteps));
    t.seed = static_cast<std::uint64_t>(a.integer("--seed", static_cast<long long>(t.seed), 0, plan_limits::kMaxSeed));
    t.optimizer.lr = a.number("--lr", t.optimizer.lr);
    if (auto spared = a.value("--no-decay")) { // checked with the plan: "1d", "embeddings"
        std::stringstream list(*spared);
        for (std::string kind; std::getline(list, kind, ',');)
            if (!kind.empty()) t.optimizer.noDecay.push_back(kind);
    }
    if (auto d = a.value("--data")) {
        if (*d == "synthetic") t.data.kind = DataConfig::Synthetic;
        else if (*d == "tokens") t.data.kind = DataConfig::Tokens;
        else if (*d == "text") t.data.kind = DataConfig::Text;
        else return usageError(err, "--data must be synthetic, tokens or text", kPlanUsage);
    }
    if (auto p = a.value("--data-path")) t.data.path = *p;
    // Headerless token files; llm.c's and Megatron's say their own.
    for (const auto& [option, dtype] : {std::pair{"--data-dtype", &t.data.dtype}, std::pair{"--val-data-dtype", &t.eval.dtype}}) {
        const auto d = a.value(option);
        if (!d) continue;
        const auto parsed = parseTokenDtype(*d);
        if (!parsed) return usageError(err, std::string(option) + " must be uint16, uint32 or auto", kPlanUsage);
        *dtype = *parsed;
    }
    // The validation loss: on with any of its options, 8 batches unless told.
    if (a.has("--val-data-path") || a.has("--val-holdout") || a.has("--eval-every") || a.has("--eval-batches")) {
        if (auto p = a.value("--val-data-path")) t.eval.path = *p;
        t.eval.holdout = a.number("--val-holdout", 0.0);
        t.eval.every = static_cast<int>(a.integer("--eval-every", 0, 0, plan_limits::kMaxSteps));
        t.eval.batches = static_cast<int>(a.integer("--eval-batches", plan_limits::kDefaultEvalBatches, 1, EvalConfig::kMaxBatches));
    }
    if (auto d = a.value("--checkpoint-dir")) t.checkpoint.dir = *d;
    t.checkpoint.interval = static_cast<int>(a.integer("--checkpoint-interval", t.checkpoint.interval, 0, plan_limits::kMaxSteps));
    if (!a.ok()) return usageError(err, a.error(), kPlanUsage);

    LoadedPlan checked = validateLoaded(PlanReadResult{plan, {}});
    printProblems(err, *output, checked.problems);
    if (!checked.ok()) {
        err << "shardbench-cli: the plan has errors; not written\n";
        return kExitBadInput;
    }
    if (!writeText(*output, planToString(plan), err)) return kExitBadInput;
    out << "wrote " << *output << " (" << plan.model.preset << ", " << plan.units.size() << " units, world "
        << plan.mesh.worldSize() << ")\n";
    return kExitOk;
}

int cmdValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    const char* usage = kValidateUsage;
    Args a(argv, {}, {});
    if (!a.ok()) return usageError(err, a.error(), usage);
    if (a.positional().size() != 1) return usageError(err, "expected one plan file", usage);
    LoadedPlan lp;
    if (!loadValid(a.positional()[0], lp, err)) return kExitBadInput;
    out << a.positional()[0] << ": valid (" << lp.plan.model.preset << ", " << formatCount(lp.tree->totalParams())
        << " parameters, " << lp.plan.units.size() << " units, world " << lp.plan.mesh.worldSize() << ")\n";
    return kExitOk;
}

int cmdEstimate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    const char* usage = kEstimateUsage;
    Args a(argv, {}, {"--json", "--timeline", "--csv", "--max-batch"});
    if (!a.ok()) return usageError(err, a.error(), usage);
    if (a.positional().size() != 1) return usageError(err, "expected one plan file", usage);
    LoadedPlan lp;
    if (!loadValid(a.positional()[0], lp, err)) return kExitBadInput;
    const ResolvedPlan r = resolvePlan(lp.plan, *lp.tree);
    const Estimate e = estimateMemory(lp.plan, *lp.tree, r);
    if (a.has("--json")) {
        json::Value j = estimateJson(lp.plan, e, a.has("--timeline"));
        if (a.has("--max-batch")) j.set("largest_micro_batch", largestFittingMicroBatch(lp.plan, *lp.tree));
        out << j.dump(2) << "\n";
    } else if (a.has("--csv")) {
        out << estimateCsv(e);
    } else {
        out << estimateTable(lp.plan, e);
        if (a.has("--timeline")) {
            out << "\nTimeline of one step (rank " << e.worstRank << "):\n";
            for (const TimelinePoint& p : e.timeline) out << "  " << formatBytes(p.memory.total()) << "\t" << p.label << "\n";
        }
        if (a.has("--max-batch"))
            out << "Largest micro-batch that fits: " << largestFittingMicroBatch(lp.plan, *lp.tree) << "\n";
    }
    return kExitOk;
}

int cmdExportScript(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    const char* usage = kExportScriptUsage;
    Args a(argv, {"-o", "--output"}, {});
    if (!a.ok()) return usageError(err, a.error(), usage);
    if (a.positional().size() != 1) return usageError(err, "expected one plan file", usage);
    auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (!output) return usageError(err, "missing -o train.py", usage);
    LoadedPlan lp;
    if (!loadValid(a.positional()[0], lp, err)) return kExitBadInput;
    if (!writeText(*output, exportFsdp2Script(lp.plan, *lp.tree), err)) return kExitBadInput;
    out << "wrote " << *output << "\n";
    return kExitOk;
}

int cmdPresets(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {}, {});
    if (!a.ok()) return usageError(err, a.error(), kPresetsUsage);
    if (!a.positional().empty()) return usageError(err, "unexpected argument \"" + a.positional()[0] + "\"", kPresetsUsage);
    for (const PresetInfo& p : modelPresets()) {
        auto cfg = presetConfig(p.name);
        auto tree = buildModuleTree(*cfg);
        out << p.name << "\t" << formatCount(tree->totalParams()) << "\t" << p.description << "\n";
    }
    return kExitOk;
}

} // namespace sb::cli
