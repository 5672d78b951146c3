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

std::shared_ptr<store::SqliteRunStore> StoreAccess::writer(QString* error)
{
    const QString p = path();
    // A changed setting takes effect for the next run; sessions keep theirs.
    if (writer_ && writer_->path() == p) return writer_;
    std::unique_ptr<store::SqliteRunStore> opened = store::SqliteRunStore::open(p, error);
    if (!opened) return nullptr;
    writer_ = std::move(opened);
    return writer_;
}

std::unique_ptr<store::RunReader> StoreAccess::openReader(QString* error) const { return openReader(path(), error); }

std::unique_ptr<store::RunReader> StoreAccess::openReader(const QString& path, QString* error)
{
    if (!QFileInfo::exists(path)) {
        if (error) error->clear();
        return nullptr;
    }
    QString e;
    auto reader = store::RunReader::open(path, &e);
    if (error) *error = e;
    return reader;
}

} // namespace sb::app
