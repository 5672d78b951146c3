#include "kept_values.hpp"

#include "plan/plan_json.hpp"

namespace sb::gui {

namespace {

JsonPath rebuilt(const JsonPath& path, std::size_t unitIndex)
{
    JsonPath out;
    for (std::size_t i = 0; i < path.steps().size(); ++i) {
        const JsonPath::Step& s = path.steps()[i];
        out = s.isIndex ? out.index(i == 1 ? unitIndex : s.index) : out.key(s.key);
    }
    return out;
}

bool inUnit(const JsonPath& path) { return path.keyAt(0) == "units" && path.indexAt(1).has_value(); }

// The value at `path` for writing, or nullptr; never creates anything.
json::Value* mutableAt(json::Value& root, const JsonPath& path, std::size_t steps)
{
    json::Value* v = &root;
    for (std::size_t i = 0; i < steps; ++i) {
        const JsonPath::Step& s = path.steps()[i];
        json::Value* next = nullptr;
        if (s.isIndex) {
            if (v->isArray() && s.index < v->size()) next = &v->mutableArray()[s.index];
        } else if (v->isObject()) {
            for (json::Member& m : v->mutableObject())
                if (m.first == s.key) next = &m.second;
        }
        if (!next) return nullptr;
        v = next;
    }
    return v;
}

} // namespace

bool keepsValue(const Problem& p)
{
    switch (p.code) {
    case ProblemCode::PlanType:
    case ProblemCode::PlanUnknownField:
    case ProblemCode::PlanInteger:
    case ProblemCode::PlanNumber:
    case ProblemCode::PlanBool:
    case ProblemCode::PlanString:
    case ProblemCode::PlanStringList:
    case ProblemCode::PlanDtype:
    case ProblemCode::PlanArch:
    case ProblemCode::PlanDevice:
    case ProblemCode::PlanMemory:
    case ProblemCode::PlanReshard:
    case ProblemCode::PlanActivationCheckpointing:
    case ProblemCode::PlanOptimizer:
    case ProblemCode::PlanBetas:
    case ProblemCode::PlanDataKind:
    case ProblemCode::PlanDataDtype:
    case ProblemCode::ModelRopeScalingType: return !p.path.steps().empty();
    default: return false;
    }
}

const json::Value* valueAt(const json::Value& root, const JsonPath& path)
{
    const json::Value* v = &root;
    for (const JsonPath::Step& s : path.steps()) {
        if (s.isIndex) v = v->isArray() && s.index < v->size() ? &v->asArray()[s.index] : nullptr;
        else v = v->find(s.key);
        if (!v) return nullptr;
    }
    return v;
}

KeptValues keptValues(const json::Value& file, const Problems& readProblems)
{
    // A value is found again by its unit's module: only a module's first unit
    // can be (a second one of the same module would write into the first).
    std::unordered_map<std::string, std::size_t> firstUnit;
    if (const json::Value* units = file.find("units"); units && units->isArray())
        for (std::size_t i = 0; i < units->size(); ++i)
            if (const json::Value* m = units->asArray()[i].find("module"); m && m->isString()) firstUnit.emplace(m->asString(), i);
    KeptValues out;
    for (const Problem& p : readProblems) {
        if (!keepsValue(p)) continue;
        const json::Value* raw = valueAt(file, p.path);
        if (!raw) continue;
        KeptValue k{p.path, std::nullopt, *raw, p};
        if (inUnit(p.path)) {
            const json::Value* module = valueAt(file, JsonPath().key("units").index(*p.path.indexAt(1)).key("module"));
            if (!module || !module->isString() || firstUnit.at(module->asString()) != *p.path.indexAt(1))
                continue; // a unit without a module, or a repeated one, is not kept
            k.unit = module->asString();
        }
        out.push_back(std::move(k));
    }
    return out;
}

UnitIndex unitIndex(const Plan& plan)
{
    UnitIndex index;
    for (std::size_t i = 0; i < plan.units.size(); ++i) index.emplace(plan.units[i].module, i);
    return index;
}

std::optional<JsonPath> currentPath(const KeptValue& kept, const UnitIndex& units)
{
    if (!kept.unit) return kept.path;
    const auto it = units.find(*kept.unit);
    if (it == units.end()) return std::nullopt;
    return rebuilt(kept.path, it->second);
}

KeptValues keptAfter(const KeptValues& kept, const Plan& before, const Plan& after, const std::vector<JsonPath>& settled)
{
    if (kept.empty()) return {};
    const json::Value was = planToJson(before);
    const json::Value now = planToJson(after);
    const UnitIndex unitsBefore = unitIndex(before);
    const UnitIndex unitsAfter = unitIndex(after);
    KeptValues out;
    for (const KeptValue& k : kept) {
        const std::optional<JsonPath> from = currentPath(k, unitsBefore);
        const std::optional<JsonPath> to = currentPath(k, unitsAfter);
        if (!from || !to) continue;
        bool isSettled = false;
        for (const JsonPath& s : settled) isSettled = isSettled || s == *to;
        if (isSettled) continue;
        const json::Value* a = valueAt(was, *from);
        const json::Value* b = valueAt(now, *to);
        if ((a == nullptr) != (b == nullptr) || (a && *a != *b)) continue;
        out.push_back(k);
    }
    return out;
}

json::Value withKeptValues(json::Value planJson, const KeptValues& kept, const Plan& plan)
{
    const UnitIndex units = unitIndex(plan);
    for (const KeptValue& k : kept) {
        const std::optional<JsonPath> path = currentPath(k, units);
        if (!path) continue;
        const std::size_t n = path->steps().size();
        json::Value* parent = mutableAt(planJson, *path, n - 1);
        if (!parent) continue;
        const JsonPath::Step& last = path->steps()[n - 1];
        if (!last.isIndex && parent->isObject()) parent->set(last.key, k.raw);
        else if (last.isIndex && parent->isArray() && last.index < parent->size()) parent->mutableArray()[last.index] = k.raw;
    }
    return planJson;
}

} // namespace sb::gui
