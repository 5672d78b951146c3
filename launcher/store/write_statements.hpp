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
    QString prepareError() const { return prepareError_; }

    // Each returns "" or the error of that row.
    QString createRun(const NewRun& run, qint64* id);
    QString updateRun(const RunUpdate& u);
    QString deleteRun(const DeleteRun& d);
    QString recordAttempt(const AttemptRecord& a);
    QString addStepMetrics(const MetricRow& row);
    QString addEvent(const EventRecord& e);
    QString addSystemSample(const SystemSample& s);
    QString addLog(const LogRecord& l);
    QString addCheckpoint(const CheckpointRecord& c);
    QString upsertHost(const HostRecord& h);
    QString setIngestOffset(const IngestOffset& o);

private:
    QSqlQuery prepare(const QString& sql);

    QSqlDatabase db_;
    QString prepareError_;
    SqliteStatement metrics_; // the hot path, bound without QVariant
    QSqlQuery createRun_, attempt_, event_, system_, log_, checkpoint_, host_, offset_;
};

} // namespace sb::store
