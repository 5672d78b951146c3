#include "sqlite_run_store.hpp"

#include "connection.hpp"
#include "write_statements.hpp"

#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

#include <vector>

namespace sb::store {

Status WriterOptions::validate() const
{
    if (maxBatch < 1) return Status::error("maxBatch must be at least 1");
    if (maxQueued < 1) return Status::error("maxQueued must be at least 1");
    return {};
}

SqliteRunStore::SqliteRunStore(QString path, WriterOptions options) : path_(std::move(path)), options_(options) {}

Result<std::unique_ptr<SqliteRunStore>> SqliteRunStore::open(const QString& path, WriterOptions options)
{
    if (Status bad = options.validate(); !bad) return bad;
    std::unique_ptr<SqliteRunStore> store(new SqliteRunStore(path, options));
    std::promise<Status> opened;
    std::future<Status> openResult = opened.get_future();
    SqliteRunStore* self = store.get();
    store->thread_ = QThread::create([self, &opened] { self->writerLoop(opened); });
    store->thread_->setObjectName(QStringLiteral("run-store-writer"));
    store->thread_->start();
    if (Status err = openResult.get(); !err) {
        store->thread_->wait();
        delete store->thread_;
        store->thread_ = nullptr;
        return err;
    }
    return store;
}

SqliteRunStore::~SqliteRunStore()
{
    if (!thread_) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_->wait();
    delete thread_;
}

void SqliteRunStore::enqueue(Op op)
{
    {
        std::unique_lock<std::mutex> lock(mutex_);
        drained_.wait(lock, [&] { return queue_.size() < options_.maxQueued || stopping_; });
        queue_.push_back(std::move(op));
    }
    wake_.notify_one();
}

Result<qint64> SqliteRunStore::createRun(const NewRun& run)
{
    auto done = std::make_shared<std::promise<Result<qint64>>>();
    std::future<Result<qint64>> id = done->get_future();
    enqueue(CreateRunOp{run, done});
    return id.get();
}

void SqliteRunStore::updateRun(const RunUpdate& u) { enqueue(u); }
void SqliteRunStore::deleteRun(const DeleteRun& d) { enqueue(d); }
void SqliteRunStore::recordAttempt(const AttemptRecord& a) { enqueue(a); }
void SqliteRunStore::addStepMetrics(const MetricRow& row) { enqueue(row); }
void SqliteRunStore::addStepMetricsBatch(std::vector<MetricRow> rows)
{
    if (!rows.empty()) enqueue(std::move(rows));
}
void SqliteRunStore::addEvent(const EventRecord& e) { enqueue(e); }
void SqliteRunStore::addSystemSample(const SystemSample& s) { enqueue(s); }
void SqliteRunStore::addLog(const LogRecord& l) { enqueue(l); }
void SqliteRunStore::addCheckpoint(const CheckpointRecord& c) { enqueue(c); }
void SqliteRunStore::upsertHost(const HostRecord& h) { enqueue(h); }
void SqliteRunStore::setIngestOffset(const IngestOffset& o) { enqueue(o); }

Status SqliteRunStore::flush()
{
    auto done = std::make_shared<std::promise<Status>>();
    std::future<Status> ok = done->get_future();
    enqueue(FlushOp{done});
    return ok.get();
}

WriterStats SqliteRunStore::stats() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

void SqliteRunStore::writerLoop(std::promise<Status>& opened)
{
    QSqlDatabase db;
    {
        // QSqlDatabase copies share the connection: none may outlive closeStoreConnection below.
        Result<QSqlDatabase> connected = openStoreConnection(path_, OpenOptions{});
        if (!connected) {
            opened.set_value(connected.status());
            return;
        }
        db = connected.value();
    }
    std::optional<WriteStatements> statements(std::in_place, db);
    if (Status prepared = statements->prepared(); !prepared) {
        statements.reset();
        closeStoreConnection(db);
        opened.set_value(prepared.prefixed("cannot prepare the store statements"));
        return;
    }
    opened.set_value(Status());

    std::vector<Op> batch;
    batch.reserve(static_cast<std::size_t>(options_.maxBatch));
    QSqlQuery tx(db);
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return !queue_.empty() || stopping_; });
            if (queue_.empty() && stopping_) break;
            const std::size_t n = std::min(queue_.size(), static_cast<std::size_t>(options_.maxBatch));
            for (std::size_t i = 0; i < n; ++i) {
                batch.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
        }
        drained_.notify_all();

        // Results are handed out only after COMMIT: an id returned is durable.
        std::vector<std::pair<std::shared_ptr<std::promise<Result<qint64>>>, Result<qint64>>> ids;
        std::vector<std::shared_ptr<std::promise<Status>>> flushes;
        Status batchError;
        qint64 failed = 0;
        auto note = [&](const Status& e) {
            if (e) return;
            ++failed;
            if (batchError) batchError = e;
        };
        const bool began = tx.exec(QStringLiteral("BEGIN"));
        if (!began) batchError = qtError(QStringLiteral("cannot begin a transaction: ") + tx.lastError().text());
        for (Op& op : batch) {
            if (auto* f = std::get_if<FlushOp>(&op)) {
                flushes.push_back(f->done);
                continue;
            }
            if (!began) {
                ++failed;
                if (auto* c = std::get_if<CreateRunOp>(&op)) ids.emplace_back(c->done, batchError);
                continue;
            }
            std::visit(
                [&](auto& o) {
                    using T = std::decay_t<decltype(o)>;
                    if constexpr (std::is_same_v<T, CreateRunOp>) {
                        Result<qint64> id = statements->createRun(o.run);
                        note(id.status());
                        ids.emplace_back(o.done, std::move(id));
                    } else if constexpr (std::is_same_v<T, RunUpdate>) note(statements->updateRun(o));
                    else if constexpr (std::is_same_v<T, DeleteRun>) note(statements->deleteRun(o));
                    else if constexpr (std::is_same_v<T, AttemptRecord>) note(statements->recordAttempt(o));
                    else if constexpr (std::is_same_v<T, MetricRow>) note(statements->addStepMetrics(o));
                    else if constexpr (std::is_same_v<T, std::vector<MetricRow>>)
                        for (const MetricRow& row : o) note(statements->addStepMetrics(row));
                    else if constexpr (std::is_same_v<T, EventRecord>) note(statements->addEvent(o));
                    else if constexpr (std::is_same_v<T, SystemSample>) note(statements->addSystemSample(o));
                    else if constexpr (std::is_same_v<T, LogRecord>) note(statements->addLog(o));
                    else if constexpr (std::is_same_v<T, CheckpointRecord>) note(statements->addCheckpoint(o));
                    else if constexpr (std::is_same_v<T, HostRecord>) note(statements->upsertHost(o));
                    else if constexpr (std::is_same_v<T, IngestOffset>) note(statements->setIngestOffset(o));
                },
                op);
        }
        qint64 rows = 0;
        for (const Op& op : batch) {
            if (const auto* v = std::get_if<std::vector<MetricRow>>(&op)) rows += static_cast<qint64>(v->size());
            else if (!std::holds_alternative<FlushOp>(op)) ++rows;
        }
        bool committed = true;
        if (began && !tx.exec(QStringLiteral("COMMIT"))) {
            committed = false;
            batchError = qtError(QStringLiteral("cannot commit: ") + tx.lastError().text());
            tx.exec(QStringLiteral("ROLLBACK"));
        }
        if (!began) committed = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (committed) {
                stats_.rowsCommitted += rows - failed;
                stats_.failedRows += failed;
                ++stats_.transactions;
            } else {
                stats_.failedRows += rows;
            }
            if (!batchError) sinceFlush_ = batchError;
        }
        // An id is handed out only when its row was committed.
        for (auto& [promise, id] : ids) promise->set_value(committed || !id ? std::move(id) : Result<qint64>(batchError));
        if (!flushes.empty()) {
            Status result;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                std::swap(result, sinceFlush_);
            }
            for (auto& f : flushes) f->set_value(result);
        }
        batch.clear();
    }
    tx = QSqlQuery();
    statements.reset();
    closeStoreConnection(db);
}

} // namespace sb::store
