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
        loc.field = QString::fromStdString(path.keyAt(1));
    }
    return loc;
}

} // namespace sb::gui
