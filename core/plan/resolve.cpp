#include "resolve.hpp"

#include <algorithm>
#include <unordered_map>

namespace sb {

namespace {

JsonPath unitPath(std::size_t i) { return JsonPath().key("units").index(i); }

} // namespace

ResolvedPlan resolvePlan(const Plan& plan, const ModuleTree& tree, Problems* problems)
{
    Problems sink;
    Problems& ps = problems ? *problems : sink;
    auto error = [&](const JsonPath& path, ProblemCode code, std::vector<ProblemArg> args = {}) {
        ps.push_back({Severity::Error, path, code, std::move(args)});
    };

    ResolvedPlan r;
    const int nModules = static_cast<int>(tree.modules().size());
    const int nParams = static_cast<int>(tree.params().size());

    // 1. Policies to modules; keep the first of duplicates.
    std::vector<int> policyOfModule(static_cast<std::size_t>(nModules), -1);
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const UnitPolicy& u = plan.units[i];
        int m = tree.findModule(u.module);
        if (m < 0) {
            error(unitPath(i).key("module"), ProblemCode::PlanUnknownModule, {u.module});
            continue;
        }
        if (policyOfModule[static_cast<std::size_t>(m)] >= 0) {
            error(unitPath(i).key("module"), ProblemCode::PlanDuplicateUnit, {ProblemArg::unit(u.module)});
            continue;
        }
        policyOfModule[static_cast<std::size_t>(m)] = static_cast<int>(i);
    }
    if (policyOfModule[0] < 0) {
        // Plan::root() guarantees one, but a hand-built Plan may lack it.
        r.units.push_back(ResolvedUnit{});
        r.units.back().module = 0;
    }

    // 2. Units in forward (pre-)order and the innermost unit of each module.
    r.moduleUnit.assign(static_cast<std::size_t>(nModules), -1);
    for (int m = 0; m < nModules; ++m) {
        const int pol = policyOfModule[static_cast<std::size_t>(m)];
        if (pol >= 0 || (m == 0 && !r.units.empty())) {
            if (pol >= 0) {
                ResolvedUnit u;
                u.policy = pol;
                u.module = m;
                r.units.push_back(std::move(u));
            }
            const int idx = static_cast<int>(r.units.size()) - 1;
            if (m > 0) {
                int parentUnit = r.moduleUnit[static_cast<std::size_t>(tree.module(m).parent)];
                r.units[static_cast<std::size_t>(idx)].parent = parentUnit;
                r.units[static_cast<std::size_t>(parentUnit)].children.push_back(idx);
            }
            r.moduleUnit[static_cast<std::size_t>(m)] = idx;
        } else {
            r.moduleUnit[static_cast<std::size_t>(m)] = r.moduleUnit[static_cast<std::size_t>(tree.module(m).parent)];
        }
    }
    std::unordered_map<std::string, int> unitOfName;
    for (std::size_t i = 0; i < r.units.size(); ++i) unitOfName.emplace(tree.module(r.units[i].module).path, static_cast<int>(i));

    // 3. Ignored parameters stay replicated and unmanaged.
    std::vector<int> ignoredBy(static_cast<std::size_t>(nParams), -1);
    for (std::size_t ui = 0; ui < r.units.size(); ++ui) {
        const ResolvedUnit& u = r.units[ui];
        if (u.policy < 0) continue;
        const UnitPolicy& pol = plan.units[static_cast<std::size_t>(u.policy)];
        for (std::size_t j = 0; j < pol.ignoredParams.size(); ++j) {
            const JsonPath at = unitPath(static_cast<std::size_t>(u.policy)).key("ignored_params").index(j);
            int p = tree.findParam(pol.ignoredParams[j]);
            if (p < 0) {
                error(at, ProblemCode::PlanUnknownParam, {pol.ignoredParams[j]});
            } else if (!tree.isInSubtree(tree.param(p).module, u.module)) {
                error(at, ProblemCode::PlanIgnoredOutside, {pol.ignoredParams[j], ProblemArg::unit(pol.module)});
            } else {
                ignoredBy[static_cast<std::size_t>(p)] = static_cast<int>(ui);
            }
        }
    }
    // A unit nested inside parameters an enclosing unit excluded is contradictory.
    for (std::size_t ui = 1; ui < r.units.size(); ++ui) {
        const ResolvedUnit& u = r.units[ui];
        const Module& m = tree.module(u.module);
        for (int mi = u.module; mi < m.subtreeEnd; ++mi) {
            bool reported = false;
            for (int p : tree.module(mi).params) {
                const int by = ignoredBy[static_cast<std::size_t>(p)];
                if (by < 0 || by == static_cast<int>(ui) || !tree.isInSubtree(u.module, r.units[static_cast<std::size_t>(by)].module)) continue;
                error(unitPath(static_cast<std::size_t>(u.policy)).key("module"), ProblemCode::PlanUnitInIgnored,
                      {ProblemArg::unit(m.path), tree.param(p).path,
                       ProblemArg::unit(tree.module(r.units[static_cast<std::size_t>(by)].module).path)});
                reported = true;
                break;
            }
            if (reported) break;
        }
    }

    // 4. Owners, bottom-up: the innermost unit holding the parameter.
    r.paramOwner.assign(static_cast<std::size_t>(nParams), -1);
    for (int p = 0; p < nParams; ++p) {
        const Param& prm = tree.param(p);
        if (prm.tiedTo >= 0) continue;
        if (ignoredBy[static_cast<std::size_t>(p)] >= 0) continue;
        const int owner = r.moduleUnit[static_cast<std::size_t>(prm.module)];
        r.paramOwner[static_cast<std::size_t>(p)] = owner;
        r.units[static_cast<std::size_t>(owner)].params.push_back(p);
        r.units[static_cast<std::size_t>(owner)].numel += prm.numel();
    }
    for (int p = 0; p < nParams; ++p) {
        const Param& prm = tree.param(p);
        if (prm.tiedTo < 0) continue;
        const int owner = r.paramOwner[static_cast<std::size_t>(prm.tiedTo)];
        r.paramOwner[static_cast<std::size_t>(p)] = owner;
        const int here = r.moduleUnit[static_cast<std::size_t>(prm.module)];
        if (owner >= 0 && here != owner) {
            const ResolvedUnit& o = r.units[static_cast<std::size_t>(owner)];
            const ResolvedUnit& h = r.units[static_cast<std::size_t>(here)];
            error(h.policy >= 0 ? unitPath(static_cast<std::size_t>(h.policy)).key("module") : JsonPath().key("units"),
                  ProblemCode::PlanTiedSplit,
                  {prm.path, tree.param(prm.tiedTo).path, ProblemArg::unit(tree.module(h.module).path),
                   ProblemArg::unit(tree.module(o.module).path)});
        }
    }

    // 5. Concrete policies.
    const int shard = plan.mesh.shardSize();
    for (std::size_t ui = 0; ui < r.units.size(); ++ui) {
        ResolvedUnit& u = r.units[ui];
        const UnitPolicy defaults;
        const UnitPolicy& pol = u.policy >= 0 ? plan.units[static_cast<std::size_t>(u.policy)] : defaults;
        switch (pol.reshard.kind) {
        case Reshard::Default: u.reshardAfterForward = ui != 0; break; // FSDP2: the root keeps its params
        case Reshard::True: u.reshardAfterForward = true; break;
        case Reshard::False: u.reshardAfterForward = false; break;
        case Reshard::Group:
            u.reshardAfterForward = pol.reshard.group > 1;
            u.reshardGroup = (pol.reshard.group > 1 && pol.reshard.group < shard) ? pol.reshard.group : 0;
            break;
        }
        DType own = plan.model.dtype;
        if (!u.params.empty()) own = tree.param(u.params.front()).dtype;
        u.paramDtype = pol.mp.paramDtype.value_or(own);
        u.reduceDtype = pol.mp.reduceDtype.value_or(u.paramDtype);
        u.outputDtype = pol.mp.outputDtype;
        u.castForwardInputs = pol.mp.castForwardInputs;
        u.offload = pol.offload;
        u.checkpoint = pol.ac == Checkpointing::Full;
        auto prefetch = [&](const std::vector<std::string>& names, const char* key, std::vector<int>& out) {
            for (std::size_t j = 0; j < names.size(); ++j) {
                auto it = unitOfName.find(names[j]);
                auto at = [&] { return unitPath(static_cast<std::size_t>(u.policy)).key(key).index(j); };
                if (it == unitOfName.end()) error(at(), ProblemCode::PlanPrefetchUnknown, {names[j]});
                else if (it->second == static_cast<int>(ui)) error(at(), ProblemCode::PlanPrefetchSelf);
                else out.push_back(it->second);
            }
        };
        prefetch(pol.forwardPrefetch, "forward_prefetch", u.forwardPrefetch);
        prefetch(pol.backwardPrefetch, "backward_prefetch", u.backwardPrefetch);
    }
    r.valid = true;
    return r;
}

} // namespace sb
