// Opening a connection to the run store file: WAL journal, a busy timeout so
// readers and writers of several processes wait for each other instead of
// failing, foreign keys on, and the schema migrated to the current version.
#pragma once

#include "status/qt_status.hpp"

#include <QSqlDatabase>
#include <QString>

namespace sb::store {

struct OpenOptions {
    bool create = true;      // create the file (and its folder) when missing
    bool migrate = true;     // apply pending migrations
    int busyTimeoutMs = 10000;
};

// Opens `path` under a connection name unique to this call; the connection
// belongs to the calling thread. Or the error, naming the file.
Result<QSqlDatabase> openStoreConnection(const QString& path, const OpenOptions& options);

// Closes and removes a connection opened above.
void closeStoreConnection(QSqlDatabase& db);

} // namespace sb::store
