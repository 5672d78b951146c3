// Prepared statements of the writer thread, one per kind of row. Lives in
// the writer thread with the connection it was prepared on.
#pragma once

#include "sqlite_handle.hpp"
#include "store_records.hpp"
#include "system_samples.hpp"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

namespace sb::store {

class WriteStatements {
public:
    explicit WriteStatements(QSqlDatabase db);
    // ok, or the first statement that could not be prepared.
    Status prepared() const { return prepared_; }

    // Each returns ok or the error of that row; createRun the new run's id.
    Result<qint64> createRun(const NewRun& run);
    Status updateRun(const RunUpdate& u);
    Status deleteRun(const DeleteRun& d);
    Status recordAttempt(const AttemptRecord& a);
    Status addStepMetrics(const MetricRow& row);
    Status addEvent(const EventRecord& e);
    Status addSystemSample(const SystemSample& s);
    Status addLog(const LogRecord& l);
    Status addCheckpoint(const CheckpointRecord& c);
    Status upsertHost(const HostRecord& h);
    Status setIngestOffset(const IngestOffset& o);

private:
    QSqlQuery prepare(const QString& sql);

    QSqlDatabase db_;
    Status prepared_;
    SqliteStatement metrics_; // the hot path, bound without QVariant
    QSqlQuery createRun_, attempt_, event_, system_, log_, checkpoint_, host_, offset_;
};

} // namespace sb::store
