// The writing side of the run store, as the launcher sees it. Calls never
// block on disk except createRun (it returns the new id) and flush(); everything else is queued and committed in batches.
#pragma once

#include "store_records.hpp"
#include "system_samples.hpp"

#include "status/qt_status.hpp"

#include <QString>

#include <vector>

namespace sb::store {

class RunStore {
public:
    virtual ~RunStore() = default;

    // The new run's id once committed, or why it could not be recorded.
    virtual Result<qint64> createRun(const NewRun& run) = 0;
    virtual void updateRun(const RunUpdate& update) = 0;
    virtual void deleteRun(const DeleteRun& run) = 0;
    virtual void recordAttempt(const AttemptRecord& attempt) = 0; // insert or replace
    virtual void addStepMetrics(const MetricRow& row) = 0;
    // Rows handed over at once, committed in one transaction (a catch-up's ingest).
    virtual void addStepMetricsBatch(std::vector<MetricRow> rows)
    {
        for (const MetricRow& r : rows) addStepMetrics(r);
    }
    virtual void addEvent(const EventRecord& event) = 0;
    virtual void addSystemSample(const SystemSample& sample) = 0;
    virtual void addLog(const LogRecord& log) = 0;
    virtual void addCheckpoint(const CheckpointRecord& checkpoint) = 0;
    virtual void upsertHost(const HostRecord& host) = 0;
    // Never moves an offset backwards.
    virtual void setIngestOffset(const IngestOffset& offset) = 0;

    // Waits until everything queued before the call is committed; the error
    // of the last write that failed since the previous flush, if any did.
    virtual Status flush() = 0;
};

} // namespace sb::store
