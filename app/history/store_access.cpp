#include "history/store_access.hpp"

#include "settings/run_settings.hpp"

#include "store/store_location.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace sb::app {

QString RunSettings::resolvedCorePath()
{
    const QString set = corePath.value();
    return set.isEmpty() ? QCoreApplication::applicationDirPath() + QStringLiteral("/shardbench-core") : set;
}

QString RunSettings::resolvedStorePath()
{
    const QString set = storePath.value();
    return set.isEmpty() ? store::defaultDatabasePath() : set;
}

QString RunSettings::dataDir()
{
    // As sb::store::defaultDatabasePath() spells it out.
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty()) base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/shardbench");
}

QString RunSettings::resolvedLaunchDir()
{
    const QString set = launchDir.value();
    return set.isEmpty() ? dataDir() + QStringLiteral("/launches") : set;
}

StoreAccess::StoreAccess(QObject* parent) : QObject(parent) {}

QString StoreAccess::path() const { return QFileInfo(RunSettings::resolvedStorePath()).absoluteFilePath(); }

Result<std::shared_ptr<store::SqliteRunStore>> StoreAccess::writer()
{
    const QString p = path();
    // A changed setting takes effect for the next run; sessions keep theirs.
    if (writer_ && writer_->path() == p) return writer_;
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(p);
    if (!opened) return opened.status();
    writer_ = std::move(opened).value();
    return writer_;
}

Result<std::unique_ptr<store::RunReader>> StoreAccess::openReader() const { return openReader(path()); }

Result<std::unique_ptr<store::RunReader>> StoreAccess::openReader(const QString& path)
{
    if (!QFileInfo::exists(path)) return std::unique_ptr<store::RunReader>();
    return store::RunReader::open(path);
}

} // namespace sb::app
