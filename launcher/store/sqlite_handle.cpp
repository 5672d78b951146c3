#include "sqlite_handle.hpp"

#include <QSqlDriver>
#include <QString>
#include <QVariant>

#include <sqlite3.h>

#include <cstring>

namespace sb::store {

sqlite3* sqliteHandle(const QSqlDatabase& db)
{
    if (!db.isValid() || !db.driver()) return nullptr;
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || std::strcmp(v.typeName(), "sqlite3*") != 0) return nullptr;
    return *static_cast<sqlite3* const*>(v.data());
}

Result<SqliteStatement> SqliteStatement::prepare(sqlite3* db, const char* sql)
{
    if (!db) return qtError(QStringLiteral("no SQLite connection"));
    SqliteStatement s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s.stmt_, nullptr) != SQLITE_OK)
        return qtError(QString::fromUtf8(sql) + QStringLiteral(": ") + sqliteError(db)); // s finalizes what was made
    return s;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& o) noexcept
{
    if (this != &o) {
        sqlite3_finalize(stmt_);
        stmt_ = o.stmt_;
        o.stmt_ = nullptr;
    }
    return *this;
}

QString sqliteError(sqlite3* db) { return db ? QString::fromUtf8(sqlite3_errmsg(db)) : QStringLiteral("no connection"); }

} // namespace sb::store
