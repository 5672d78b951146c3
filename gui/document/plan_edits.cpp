#include "plan_edits.hpp"

#include "plan/plan_limits.hpp"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace sb::gui {

namespace {

struct PlanEdits {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::PlanEdits)
};

// "" is "not set" (the parameter's own dtype); false when the text names no dtype.
bool parseOptionalDtype(const QVariant& v, std::optional<DType>& out)
{
    const QString s = v.toString();
    out.reset();
    if (s.isEmpty()) return true;
    out = parseDType(s.toStdString());
    return out.has_value();
}

std::vector<std::string> toNames(const QStringList& list)
{
    std::vector<std::string> out;
    for (const QString& s : list)
        if (!s.trimmed().isEmpty()) out.push_back(s.trimmed().toStdString());
    return out;
}

QStringList fromNames(const std::vector<std::string>& names)
{
    QStringList out;
    for (const std::string& n : names) out << QString::fromStdString(n);
    return out;
}

int treeIndex(const ModuleTree& tree, const std::string& module)
{
    const int m = tree.findModule(module);
    return m < 0 ? static_cast<int>(tree.modules().size()) : m;
}

// The policy of the innermost unit enclosing module m (the root at least).
const UnitPolicy* enclosingUnit(const Plan& plan, const ModuleTree& tree, int m)
{
    for (int p = tree.module(m).parent; p >= 0; p = tree.module(p).parent)
        if (const UnitPolicy* u = plan.findUnit(tree.module(p).path)) return u;
    return plan.findUnit("");
}

bool addUnit(Plan& plan, const ModuleTree& tree, int m)
{
    const std::string& path = tree.module(m).path;
    if (plan.findUnit(path)) return false;
    UnitPolicy unit;
    unit.module = path;
    if (const UnitPolicy* outer = enclosingUnit(plan, tree, m)) {
        unit.mp = outer->mp;
        unit.offload = outer->offload;
    }
    // Keep units in forward (tree) order so saved plans read top to bottom.
    auto at = std::find_if(plan.units.begin(), plan.units.end(),
                           [&](const UnitPolicy& u) { return treeIndex(tree, u.module) > m; });
    plan.units.insert(at, std::move(unit));
    return true;
}

bool removeUnit(Plan& plan, const std::string& path)
{
    if (path.empty()) return false; // the root is always a unit
    auto it = std::find_if(plan.units.begin(), plan.units.end(), [&](const UnitPolicy& u) { return u.module == path; });
    if (it == plan.units.end()) return false;
    plan.units.erase(it);
    for (UnitPolicy& u : plan.units) {
        auto drop = [&](std::vector<std::string>& v) { v.erase(std::remove(v.begin(), v.end(), path), v.end()); };
        drop(u.forwardPrefetch);
        drop(u.backwardPrefetch);
    }
    return true;
}

QString undoText(PolicyField field, const QVariant& value, int n)
{
    switch (field) {
    case PolicyField::Unit:
        return value.toBool() ? PlanEdits::tr("Make %n unit(s)", nullptr, n) : PlanEdits::tr("Remove %n unit(s)", nullptr, n);
    case PolicyField::Reshard: return PlanEdits::tr("Set reshard after forward on %n unit(s)", nullptr, n);
    case PolicyField::ParamDtype: return PlanEdits::tr("Set parameter dtype on %n unit(s)", nullptr, n);
    case PolicyField::ReduceDtype: return PlanEdits::tr("Set reduce dtype on %n unit(s)", nullptr, n);
    case PolicyField::OutputDtype: return PlanEdits::tr("Set output dtype on %n unit(s)", nullptr, n);
    case PolicyField::Offload: return PlanEdits::tr("Set CPU offload on %n unit(s)", nullptr, n);
    case PolicyField::Checkpointing: return PlanEdits::tr("Set activation checkpointing on %n unit(s)", nullptr, n);
    case PolicyField::ForwardPrefetch: return PlanEdits::tr("Set forward prefetch on %n unit(s)", nullptr, n);
    case PolicyField::BackwardPrefetch: return PlanEdits::tr("Set backward prefetch on %n unit(s)", nullptr, n);
    }
    return {};
}

} // namespace

std::optional<Reshard> parseReshard(const QString& text)
{
    const QString s = text.trimmed().toLower();
    if (s == u"default") return Reshard{Reshard::Default, 0};
    if (s == u"true") return Reshard{Reshard::True, 0};
    if (s == u"false") return Reshard{Reshard::False, 0};
    bool ok = false;
    const int k = s.toInt(&ok);
    if (!ok || k < 1 || k > plan_limits::kMaxReshardGroup) return std::nullopt;
    return Reshard{Reshard::Group, k};
}

QString reshardValue(const Reshard& r)
{
    switch (r.kind) {
    case Reshard::Default: return QStringLiteral("default");
    case Reshard::True: return QStringLiteral("true");
    case Reshard::False: return QStringLiteral("false");
    case Reshard::Group: return QString::number(r.group);
    }
    return QStringLiteral("default");
}

QVariant policyValue(const UnitPolicy& u, PolicyField field)
{
    auto dtype = [](const std::optional<DType>& t) { return t ? QString::fromLatin1(dtypeName(*t)) : QString(); };
    switch (field) {
    case PolicyField::Unit: return true;
    case PolicyField::Reshard: return reshardValue(u.reshard);
    case PolicyField::ParamDtype: return dtype(u.mp.paramDtype);
    case PolicyField::ReduceDtype: return dtype(u.mp.reduceDtype);
    case PolicyField::OutputDtype: return dtype(u.mp.outputDtype);
    case PolicyField::Offload: return u.offload;
    case PolicyField::Checkpointing: return u.ac == Checkpointing::Full;
    case PolicyField::ForwardPrefetch: return fromNames(u.forwardPrefetch);
    case PolicyField::BackwardPrefetch: return fromNames(u.backwardPrefetch);
    }
    return {};
}

int setPolicy(Plan& plan, const ModuleTree& tree, const std::vector<int>& modules, PolicyField field,
              const QVariant& value)
{
    int changed = 0;
    if (field == PolicyField::Unit) {
        for (int m : modules) {
            if (m < 0 || m >= static_cast<int>(tree.modules().size())) continue;
            changed += value.toBool() ? addUnit(plan, tree, m) : removeUnit(plan, tree.module(m).path);
        }
        return changed;
    }
    Reshard reshard;
    std::optional<DType> dtype;
    if (field == PolicyField::Reshard) {
        const auto parsed = parseReshard(value.toString());
        if (!parsed) return -1;
        reshard = *parsed;
    }
    if ((field == PolicyField::ParamDtype || field == PolicyField::ReduceDtype || field == PolicyField::OutputDtype) &&
        !parseOptionalDtype(value, dtype))
        return -1;
    for (int m : modules) {
        if (m < 0 || m >= static_cast<int>(tree.modules().size())) continue;
        UnitPolicy* u = plan.findUnit(tree.module(m).path);
        if (!u) continue;
        const UnitPolicy before = *u;
        switch (field) {
        case PolicyField::Unit: break;
        case PolicyField::Reshard: u->reshard = reshard; break;
        case PolicyField::ParamDtype: u->mp.paramDtype = dtype; break;
        case PolicyField::ReduceDtype: u->mp.reduceDtype = dtype; break;
        case PolicyField::OutputDtype: u->mp.outputDtype = dtype; break;
        case PolicyField::Offload: u->offload = value.toBool(); break;
        case PolicyField::Checkpointing: u->ac = value.toBool() ? Checkpointing::Full : Checkpointing::None; break;
        case PolicyField::ForwardPrefetch: u->forwardPrefetch = toNames(value.toStringList()); break;
        case PolicyField::BackwardPrefetch: u->backwardPrefetch = toNames(value.toStringList()); break;
        }
        changed += !(before == *u);
    }
    return changed;
}

int makeBlocksUnits(Plan& plan, const ModuleTree& tree)
{
    int added = 0;
    for (int b : tree.blocks()) added += addUnit(plan, tree, b);
    return added;
}

Plan planWithModel(const Plan& plan, const ModelConfig& model, bool newPreset)
{
    Plan out = plan;
    out.model = model;
    if (newPreset) {
        out.units = defaultPlan(model).units;
        out.name = model.preset;
        // Learned position tables bound the sequence (Llama uses RoPE).
        if (model.arch == Arch::Tutorial || model.arch == Arch::Gpt2)
            out.training.seqLen = static_cast<int>(std::min<std::int64_t>(out.training.seqLen, model.maxSeqLen));
        return out;
    }
    Problems sizes;
    model.validate(JsonPath().key("model"), sizes);
    if (hasErrors(sizes)) return out; // no tree to match units against; keep them for when the sizes are fixed
    const auto oldTree = buildModuleTree(plan.model);
    const auto newTree = buildModuleTree(model);
    const std::vector<int> oldBlocks = oldTree->blocks();
    const bool everyBlock = !oldBlocks.empty() && std::all_of(oldBlocks.begin(), oldBlocks.end(), [&](int b) {
        return plan.findUnit(oldTree->module(b).path) != nullptr;
    });
    out.units.clear();
    for (const UnitPolicy& u : plan.units)
        if (u.module.empty() || newTree->findModule(u.module) >= 0) out.units.push_back(u);
    out.root();
    for (UnitPolicy& u : out.units) {
        auto keep = [&](std::vector<std::string>& v) {
            v.erase(std::remove_if(v.begin(), v.end(), [&](const std::string& n) { return !out.findUnit(n); }), v.end());
        };
        keep(u.forwardPrefetch);
        keep(u.backwardPrefetch);
    }
    if (everyBlock) makeBlocksUnits(out, *newTree);
    return out;
}

namespace {

// Where `field` of units[unit] is in the plan's JSON.
std::optional<JsonPath> policyPath(std::size_t unit, PolicyField field)
{
    const JsonPath u = JsonPath().key("units").index(unit);
    switch (field) {
    case PolicyField::Unit: return std::nullopt;
    case PolicyField::Reshard: return u.key("reshard_after_forward");
    case PolicyField::ParamDtype: return u.key("mixed_precision").key("param_dtype");
    case PolicyField::ReduceDtype: return u.key("mixed_precision").key("reduce_dtype");
    case PolicyField::OutputDtype: return u.key("mixed_precision").key("output_dtype");
    case PolicyField::Offload: return u.key("offload");
    case PolicyField::Checkpointing: return u.key("activation_checkpointing");
    case PolicyField::ForwardPrefetch: return u.key("forward_prefetch");
    case PolicyField::BackwardPrefetch: return u.key("backward_prefetch");
    }
    return std::nullopt;
}

} // namespace

bool editPolicy(PlanDocument& doc, const std::vector<int>& modules, PolicyField field, const QVariant& value)
{
    Plan after = doc.plan();
    const int n = setPolicy(after, doc.tree(), modules, field, value);
    if (n < 0) return false;
    // The cells set: a value kept from the file there goes, even when the plan held the same.
    std::vector<JsonPath> settled;
    for (int m : modules)
        for (std::size_t i = 0; i < after.units.size(); ++i)
            if (after.units[i].module == doc.tree().module(m).path)
                if (std::optional<JsonPath> path = policyPath(i, field)) settled.push_back(*path);
    if (n == 0 && settled.empty()) return false;
    return doc.change(undoText(field, value, n), PlanAspect::Units, after, 0, settled);
}

bool editMakeBlocksUnits(PlanDocument& doc)
{
    Plan after = doc.plan();
    if (makeBlocksUnits(after, doc.tree()) == 0) return false;
    return doc.change(PlanEdits::tr("Make every block a unit"), PlanAspect::Units, after);
}

bool editModel(PlanDocument& doc, const ModelConfig& model, bool newPreset, int mergeKey, const std::vector<JsonPath>& settled)
{
    const Plan after = planWithModel(doc.plan(), model, newPreset);
    const QString text = newPreset ? PlanEdits::tr("Change model to %1").arg(QString::fromStdString(model.preset))
                                   : PlanEdits::tr("Change model sizes");
    return doc.change(text, PlanAspect::Model | PlanAspect::Units | PlanAspect::Training | PlanAspect::Name, after,
                      mergeKey, settled);
}

bool editMesh(PlanDocument& doc, const Mesh& mesh, int mergeKey, const std::vector<JsonPath>& settled)
{
    Plan after = doc.plan();
    after.mesh = mesh;
    return doc.change(PlanEdits::tr("Change mesh"), PlanAspect::Mesh, after, mergeKey, settled);
}

bool editTraining(PlanDocument& doc, const TrainingConfig& training, int mergeKey, const std::vector<JsonPath>& settled)
{
    Plan after = doc.plan();
    after.training = training;
    return doc.change(PlanEdits::tr("Change training settings"), PlanAspect::Training, after, mergeKey, settled);
}

} // namespace sb::gui
