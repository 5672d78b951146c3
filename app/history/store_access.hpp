// The run store as the workbench uses it: one writer for the runs it launches
// (opened on first use and shared with the sessions recording into it) and a
// reader per caller and thread. `runsChanged` tells the history to reload.
#pragma once

#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QObject>
#include <QString>

#include <memory>

namespace sb::app {

class StoreAccess : public QObject {
    Q_OBJECT
public:
    explicit StoreAccess(QObject* parent = nullptr);

    // The file in use (the setting, else the CLI's default store).
    QString path() const;
    // Opens the writer on first use (creating the file); or the error, naming the file.
    Result<std::shared_ptr<store::SqliteRunStore>> writer();
    // A reader for the calling thread: null when there is no store yet, or the error when it cannot be read.
    Result<std::unique_ptr<store::RunReader>> openReader() const;
    static Result<std::unique_ptr<store::RunReader>> openReader(const QString& path);

    void notifyRunsChanged() { Q_EMIT runsChanged(); }

Q_SIGNALS:
    void runsChanged();

private:
    std::shared_ptr<store::SqliteRunStore> writer_;
};

} // namespace sb::app
