#include "connection.hpp"

#include "schema.hpp"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

namespace sb::store {

namespace {

QString uniqueConnectionName()
{
    static QAtomicInteger<int> counter;
    return QStringLiteral("sb-store-%1").arg(counter.fetchAndAddRelaxed(1));
}

Status exec(QSqlDatabase& db, const QString& sql)
{
    QSqlQuery q(db);
    if (q.exec(sql)) return {};
    return qtError(sql + QStringLiteral(": ") + q.lastError().text());
}

Status configure(QSqlDatabase& db, const QString& path, const OpenOptions& options)
{
    if (Status s = exec(db, QStringLiteral("PRAGMA foreign_keys = ON")); !s) return s;
    // journal_mode is persistent in the file; the query fails on a file that is not a database.
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !q.next())
        return qtError(QStringLiteral("%1 is not a usable SQLite database: %2").arg(path, q.lastError().text()));
    if (q.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        return qtError(QStringLiteral("cannot switch %1 to WAL mode (journal mode is %2)").arg(path, q.value(0).toString()));
    q.finish();
    // NORMAL in WAL mode: a crash of the process never loses a committed
    // transaction; only a power loss may drop the last ones.
    if (Status s = exec(db, QStringLiteral("PRAGMA synchronous = NORMAL")); !s) return s;
    if (options.migrate) {
        return migrate(db);
    }
    if (schemaVersion(db) != kSchemaVersion)
        return qtError(QStringLiteral("%1 has schema version %2, expected %3").arg(path).arg(schemaVersion(db)).arg(kSchemaVersion));
    return {};
}

} // namespace

Result<QSqlDatabase> openStoreConnection(const QString& path, const OpenOptions& options)
{
    auto fail = [](const QString& msg) -> Result<QSqlDatabase> { return qtError(msg); };
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not installed (Debian: libqt6sql6-sqlite)"));
    const QFileInfo info(path);
    if (!info.exists()) {
        if (!options.create) return fail(QStringLiteral("no run store at %1").arg(path));
        if (!QDir().mkpath(info.absolutePath()))
            return fail(QStringLiteral("cannot create the folder %1").arg(info.absolutePath()));
    } else if (info.isDir()) {
        return fail(QStringLiteral("%1 is a folder, not a database file").arg(path));
    }

    const QString name = uniqueConnectionName();
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(options.busyTimeoutMs));
    const Status opened = db.open() ? configure(db, path, options)
                                    : qtError(QStringLiteral("cannot open %1: %2").arg(path, db.lastError().text()));
    if (!opened) {
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return opened;
    }
    return db;
}

void closeStoreConnection(QSqlDatabase& db)
{
    const QString name = db.connectionName();
    db.close();
    db = QSqlDatabase();
    if (!name.isEmpty()) QSqlDatabase::removeDatabase(name);
}

} // namespace sb::store
