// The SQLite run store: one writer thread owns its connection and commits
// queued rows in batched transactions (a batch is whatever queued up while
// the previous one was committing, up to maxBatch rows). Producers never
// wait for the disk unless the queue is full or they ask for a result.
#pragma once

#include "run_store.hpp"

#include <QString>

#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <variant>

class QThread;

namespace sb::store {

struct WriterOptions {
    int maxBatch = 50000;          // rows per transaction at most
    std::size_t maxQueued = 1000000; // producers wait beyond this
    Status validate() const;
};

struct WriterStats {
    qint64 rowsCommitted = 0;
    qint64 transactions = 0;
    qint64 failedRows = 0;
};

class SqliteRunStore final : public RunStore {
public:
    // Opens (creating and migrating as needed) and starts the writer thread;
    // or the error, naming the file.
    static Result<std::unique_ptr<SqliteRunStore>> open(const QString& path, WriterOptions options = {});
    ~SqliteRunStore() override; // commits what is queued, then stops the thread

    Result<qint64> createRun(const NewRun& run) override;
    void updateRun(const RunUpdate& update) override;
    void deleteRun(const DeleteRun& run) override;
    void recordAttempt(const AttemptRecord& attempt) override;
    void addStepMetrics(const MetricRow& row) override;
    void addStepMetricsBatch(std::vector<MetricRow> rows) override;
    void addEvent(const EventRecord& event) override;
    void addSystemSample(const SystemSample& sample) override;
    void addLog(const LogRecord& log) override;
    void addCheckpoint(const CheckpointRecord& checkpoint) override;
    void upsertHost(const HostRecord& host) override;
    void setIngestOffset(const IngestOffset& offset) override;
    Status flush() override;

    QString path() const { return path_; }
    WriterStats stats() const;

private:
    struct CreateRunOp { NewRun run; std::shared_ptr<std::promise<Result<qint64>>> done; };
    struct FlushOp { std::shared_ptr<std::promise<Status>> done; };
    using Op = std::variant<CreateRunOp, RunUpdate, DeleteRun, AttemptRecord, MetricRow, std::vector<MetricRow>,
                            EventRecord, SystemSample, LogRecord, CheckpointRecord, HostRecord, IngestOffset, FlushOp>;

    SqliteRunStore(QString path, WriterOptions options);
    void enqueue(Op op);
    void writerLoop(std::promise<Status>& opened);

    const QString path_;
    const WriterOptions options_;
    QThread* thread_ = nullptr;

    mutable std::mutex mutex_;
    std::condition_variable wake_;      // the writer: work arrived or stop
    std::condition_variable drained_;   // producers: room in the queue
    std::deque<Op> queue_;
    bool stopping_ = false;
    Status sinceFlush_; // the last failed batch's error since the previous flush
    WriterStats stats_;
};

} // namespace sb::store
