#include "problem_location.hpp"

namespace sb::gui {

ProblemLocation locateProblem(const JsonPath& path, const Plan& plan, const ModuleTree& tree)
{
    const std::string& section = path.keyAt(0);
    ProblemLocation loc;
    if (section == "units") {
        loc.kind = ProblemLocation::Unit;
        const std::optional<std::size_t> i = path.indexAt(1);
        if (!i) {
            loc.module = 0; // "$.units": a unit-level problem without a policy of its own is the root's
            return loc;
        }
        if (*i < plan.units.size()) loc.module = tree.findModule(plan.units[*i].module);
        return loc;
    }
    if (section == "model" || section == "mesh" || section == "training") {
        loc.kind = section == "model" ? ProblemLocation::Model : section == "mesh" ? ProblemLocation::Mesh : ProblemLocation::Training;
        // The keys after the section: "replicate", "optimizer.lr", "checkpoint.dir".
        for (std::size_t i = 1; i < path.steps().size() && !path.steps()[i].isIndex; ++i)
            loc.field += (i > 1 ? QStringLiteral(".") : QString()) + QString::fromStdString(path.keyAt(i));
    }
    return loc;
}

} // namespace sb::gui
