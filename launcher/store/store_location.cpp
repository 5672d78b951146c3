#include "store_location.hpp"

#include <QDir>
#include <QStandardPaths>

namespace sb::store {

QString defaultDatabasePath()
{
    const QString env = qEnvironmentVariable("SHARDBENCH_DB");
    if (!env.isEmpty()) return env;
    // AppDataLocation of an application named "shardbench" with no organisation:
    // spelt out so that it does not depend on the names the caller set.
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty()) base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/shardbench/runs.sqlite");
}

} // namespace sb::store
