#include "cli_suite.hpp"

#include <QFile>

namespace sb::test {

QString CliSuite::prepare(bool needsCore, int planSteps)
{
    qunsetenv("SHARDBENCH_DB");
    if (!tmp_.isValid()) return QStringLiteral("no scratch folder: ") + tmp_.errorString();
    for (const QString& binary : needsCore ? QStringList{cliPath(), corePath()} : QStringList{cliPath()})
        if (!QFile::exists(binary)) return binary + QStringLiteral(" is not built");
    return planSteps > 0 ? writeTinyPlan(plan_, 1, 2, planSteps) : QString();
}

} // namespace sb::test
