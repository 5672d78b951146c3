#include "sqlite_run_store.hpp"

#include "connection.hpp"
#include "write_statements.hpp"

#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

#include <vector>

namespace sb::store {

QString WriterOptions::validate() const
{
    if (maxBatch < 1) return QStringLiteral("maxBatch must be at least 1");
    if (maxQueued < 1) return QStringLiteral("maxQueued must be at least 1");
    return {};
}

SqliteRunStore::SqliteRunStore(QString path, WriterOptions options) : path_(std::move(path)), options_(options) {}

std::unique_ptr<SqliteRunStore> SqliteRunStore::open(const QString& path, QString* error, WriterOptions options)
{
    if (const QString bad = options.validate(); !bad.isEmpty()) {
        if (error) *error = bad;
        return nullptr;
    }
    std::unique_ptr<SqliteRunStore> store(new SqliteRunStore(path, options));
    std::promise<QString> opened;
    std::future<QString> openResult = opened.get_future();
    SqliteRunStore* self = store.get();
    store->thread_ = QThread::create([self, &opened] { self->writerLoop(opened); });
    store->thread_->setObjectName(QStringLiteral("run-store-writer"));
    store->thread_->start();
    const QString err = openResult.get();
    if (!err.isEmpty()) {
        store->thread_->wait();
        delete store->thread_;
        store->thread_ = nullptr;
        if (error) *error = err;
        return nullptr;
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

qint64 SqliteRunStore::createRun(const NewRun& run)
{
    auto done = std::make_shared<std::promise<qint64>>();
    std::future<qint64> id = done->get_future();
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

bool SqliteRunStore::flush()
{
    auto done = std::make_shared<std::promise<bool>>();
    std::future<bool> ok = done->get_future();
    enqueue(FlushOp{done});
    return ok.get();
}

QString SqliteRunStore::lastError() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return lastError_;
}

WriterStats SqliteRunStore::stats() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

void SqliteRunStore::writerLoop(std::promise<QString>& opened)
{
    QString err;
    QSqlDatabase db = openStoreConnection(path_, OpenOptions{}, &err);
    if (!db.isValid()) {
        opened.set_value(err);
        return;
    }
    std::optional<WriteStatements> statements(std::in_place, db);
    if (!statements->prepareError().isEmpty()) {
        err = QStringLiteral("cannot prepare the store statements: ") + statements->prepareError();
        statements.reset();
        closeStoreConnection(db);
        opened.set_value(err);
        return;
    }
    opened.set_value(QString());

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
        std::vector<std::pair<std::shared_ptr<std::promise<qint64>>, qint64>> ids;
        std::vector<std::shared_ptr<std::promise<bool>>> flushes;
        QString batchError;
        qint64 failed = 0;
        auto note = [&](const QString& e) {
            if (e.isEmpty()) return;
            ++failed;
            if (batchError.isEmpty()) batchError = e;
        };
        const bool began = tx.exec(QStringLiteral("BEGIN"));
        if (!began) batchError = QStringLiteral("cannot begin a transaction: ") + tx.lastError().text();
        for (Op& op : batch) {
            if (auto* f = std::get_if<FlushOp>(&op)) {
                flushes.push_back(f->done);
                continue;
            }
            if (!began) {
                ++failed;
                if (auto* c = std::get_if<CreateRunOp>(&op)) ids.emplace_back(c->done, -1);
                continue;
            }
            std::visit(
                [&](auto& o) {
                    using T = std::decay_t<decltype(o)>;
                    if constexpr (std::is_same_v<T, CreateRunOp>) {
                        qint64 id = -1;
                        const QString e = statements->createRun(o.run, &id);
                        note(e);
                        ids.emplace_back(o.done, e.isEmpty() ? id : -1);
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
            batchError = QStringLiteral("cannot commit: ") + tx.lastError().text();
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
            if (!batchError.isEmpty()) {
                lastError_ = batchError;
                failedSinceFlush_ = true;
            }
        }
        for (auto& [promise, id] : ids) promise->set_value(committed ? id : -1);
        if (!flushes.empty()) {
            bool ok;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                ok = !failedSinceFlush_;
                failedSinceFlush_ = false;
            }
            for (auto& f : flushes) f->set_value(ok);
        }
        batch.clear();
    }
    tx = QSqlQuery();
    statements.reset();
    closeStoreConnection(db);
}

} // namespace sb::store
