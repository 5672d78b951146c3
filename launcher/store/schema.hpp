// The run store's schema: a list of forward migrations. The version lives in
// PRAGMA user_version; opening a database applies every pending migration in
// one transaction, so a database is always at exactly one known version.
#pragma once

#include "status/qt_status.hpp"

#include <QSqlDatabase>
#include <QString>

namespace sb::store {

inline constexpr int kSchemaVersion = 10;

// Brings `db` from its version up to `target` (default: current) in one
// transaction. Refuses a database newer than this program, saying so.
Status migrate(QSqlDatabase& db, int target = kSchemaVersion);

int schemaVersion(QSqlDatabase& db); // -1 when unreadable

} // namespace sb::store
