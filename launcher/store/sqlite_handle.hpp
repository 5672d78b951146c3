// The sqlite3 connection under a QSQLITE database, for the two hot paths
// (ingest of step metrics, reading a metric series) where QVariant binding
// costs more than SQLite itself. Same library: Qt's driver links the
// system libsqlite3 this target links.
#pragma once

#include "status/qt_status.hpp"

#include <QSqlDatabase>

struct sqlite3;
struct sqlite3_stmt;

namespace sb::store {

sqlite3* sqliteHandle(const QSqlDatabase& db); // nullptr if not QSQLITE

// A prepared statement that finalizes itself.
class SqliteStatement {
public:
    SqliteStatement() = default;
    // A persistent statement, or the error naming `sql`.
    static Result<SqliteStatement> prepare(sqlite3* db, const char* sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& o) noexcept : stmt_(o.stmt_) { o.stmt_ = nullptr; }
    SqliteStatement& operator=(SqliteStatement&& o) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    sqlite3_stmt* get() const { return stmt_; }
    explicit operator bool() const { return stmt_ != nullptr; }

private:
    sqlite3_stmt* stmt_ = nullptr;
};

QString sqliteError(sqlite3* db);

} // namespace sb::store
