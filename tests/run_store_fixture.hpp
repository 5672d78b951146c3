// A run row as the store requires it, and a store file opened with one such
// row in it: where the launcher and workbench suites that write rows start.
#pragma once

#include "store/sqlite_run_store.hpp"

#include <QString>

#include <memory>

namespace sb::store::test {

// Only what every row needs (its plan "{}"); a case sets what it is about on top.
inline NewRun bareRun(const QString& uid, const QString& backend = QStringLiteral("local"), int worldSize = 0,
                      double createdAt = 0)
{
    NewRun r;
    r.uid = uid;
    r.planJson = QStringLiteral("{}");
    r.backend = backend;
    r.worldSize = worldSize;
    r.createdAt = createdAt;
    return r;
}

struct StoreWithRun {
    std::unique_ptr<SqliteRunStore> store; // nullptr: `error` says why
    qint64 id = -1;
    QString error;
};

// The store at `path` (created when missing) with `run` added to it.
inline StoreWithRun storeWithRun(const QString& path, const NewRun& run)
{
    StoreWithRun s;
    Result<std::unique_ptr<SqliteRunStore>> opened = SqliteRunStore::open(path);
    if (!opened) {
        s.error = QString::fromStdString(opened.error());
        return s;
    }
    s.store = std::move(opened).value();
    const Result<qint64> created = s.store->createRun(run);
    if (!created) {
        s.error = QString::fromStdString(created.error());
        s.store.reset();
        return s;
    }
    s.id = created.value();
    return s;
}

} // namespace sb::store::test
