#include "problem_location.hpp"

#include <QRegularExpression>

namespace sb::gui {

ProblemLocation locateProblem(const std::string& path, const Plan& plan, const ModuleTree& tree)
{
    static const QRegularExpression unitPath(QStringLiteral(R"(^\$\.units(?:\[(\d+)\])?)"));
    static const QRegularExpression sectionPath(QStringLiteral(R"(^\$\.(model|mesh|training)(?:\.(\w+))?)"));
    const QString p = QString::fromStdString(path);
    ProblemLocation loc;
    if (const auto m = unitPath.match(p); m.hasMatch()) {
        loc.kind = ProblemLocation::Unit;
        if (m.captured(1).isEmpty()) {
            loc.module = 0; // "$.units": a unit-level problem without a policy of its own is the root's
            return loc;
        }
        const std::size_t i = m.captured(1).toULongLong();
        if (i < plan.units.size()) loc.module = tree.findModule(plan.units[i].module);
        return loc;
    }
    if (const auto m = sectionPath.match(p); m.hasMatch()) {
        const QString section = m.captured(1);
        loc.kind = section == u"model" ? ProblemLocation::Model
                 : section == u"mesh"  ? ProblemLocation::Mesh
                                       : ProblemLocation::Training;
        loc.field = m.captured(2);
    }
    return loc;
}

} // namespace sb::gui
