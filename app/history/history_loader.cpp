#include "history/history_loader.hpp"

#include "history/store_access.hpp"

#include "jobs/work_pool.hpp"
#include "plan/plan_json.hpp"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace sb::app {

namespace {
constexpr int kChunk = 100; // runs per delivery to the GUI thread

template <typename T, typename Get>
UnitsValue<T> unitsValue(const Plan& plan, Get get)
{
    UnitsValue<T> out;
    out.value = get(plan.units.front());
    for (const UnitPolicy& u : plan.units) out.mixed = out.mixed || !(get(u) == out.value);
    return out;
}

double lastValue(const store::MetricSeries& s)
{
    for (qsizetype i = s.size() - 1; i >= 0; --i)
        if (!std::isnan(s.values[i])) return s.values[i];
    return std::numeric_limits<double>::quiet_NaN();
}
} // namespace

RunPlanFields planFields(const Plan& plan)
{
    RunPlanFields f;
    if (plan.units.empty()) return f;
    f.read = true;
    f.reshard = unitsValue<Reshard>(plan, [](const UnitPolicy& u) { return u.reshard; });
    f.paramDtype = unitsValue<std::optional<DType>>(plan, [](const UnitPolicy& u) { return u.mp.paramDtype; });
    f.reduceDtype = unitsValue<std::optional<DType>>(plan, [](const UnitPolicy& u) { return u.mp.reduceDtype; });
    f.offload = unitsValue<bool>(plan, [](const UnitPolicy& u) { return u.offload; });
    const TrainingConfig& t = plan.training;
    f.microBatch = t.microBatch;
    f.globalBatchTokens = qint64{t.microBatch} * t.seqLen * t.gradAccum * plan.mesh.worldSize();
    f.lr = t.optimizer.lr;
    return f;
}

HistoryLoader::HistoryLoader(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<QHash<qint64, RunDetails>>();
    connect(&watcher_, &QFutureWatcher<void>::finished, this, &HistoryLoader::detailsFinished);
}

HistoryLoader::~HistoryLoader()
{
    if (stop_) stop_->store(true);
    watcher_.waitForFinished();
}

void HistoryLoader::waitForDetails()
{
    watcher_.waitForFinished();
    QCoreApplication::sendPostedEvents(this);
}

RunDetails HistoryLoader::readDetails(store::RunReader& reader, qint64 runId)
{
    RunDetails d;
    if (const std::optional<store::RunRow> row = reader.run(runId)) {
        const auto status = store::parseStatus(row->status);
        d.finalStatus = status && store::isFinal(*status);
        const PlanReadResult plan = planFromString(row->planJson.toStdString());
        d.preset = QString::fromStdString(plan.plan.model.preset);
        d.units = static_cast<int>(plan.plan.units.size());
        d.nodes = plan.plan.mesh.nodes;
        d.procsPerNode = plan.plan.mesh.procsPerNode;
        d.replicate = plan.plan.mesh.replicate;
        if (plan.ok()) d.fields = planFields(plan.plan);
    }
    d.evalLoss = lastValue(reader.series(runId, store::Metric::EvalLoss, 0));
    for (const store::RankSummary& s : reader.rankSummaries(runId)) {
        if (s.rank == 0) d.tokensPerS = s.meanTokensPerS;
        if (s.rank < 0 || s.rank > 1 << 20) continue;
        while (d.peakPerRank.size() <= s.rank) d.peakPerRank << -1;
        d.peakPerRank[s.rank] = s.peakMem;
        if (s.peakMem > d.peakMax) {
            d.peakMax = s.peakMem;
            d.peakRank = s.rank;
        }
    }
    return d;
}

bool HistoryLoader::load(const QString& storePath, const QSet<qint64>& known)
{
    if (stop_) stop_->store(true);
    watcher_.waitForFinished();
    ++generation_;
    runs_.clear();
    error_.clear();
    Result<std::unique_ptr<store::RunReader>> opened = StoreAccess::openReader(storePath);
    if (!opened) error_ = qtMessage(opened);
    std::unique_ptr<store::RunReader> reader = opened ? std::move(opened).value() : nullptr;
    if (reader) {
        runs_ = reader->listRuns();
        if (!reader->lastError().isEmpty()) error_ = reader->lastError();
    }
    Q_EMIT runsLoaded();
    QList<qint64> ids;
    for (const store::RunRow& r : runs_)
        if (!known.contains(r.id)) ids << r.id;
    if (!reader || ids.isEmpty()) {
        Q_EMIT detailsFinished();
        return error_.isEmpty();
    }
    reader.reset(); // the worker opens its own
    stop_ = std::make_shared<std::atomic<bool>>(false);
    auto stop = stop_;
    const int generation = generation_;
    watcher_.setFuture(QtConcurrent::run(workPool(), [this, storePath, ids, stop, generation] {
        Result<std::unique_ptr<store::RunReader>> opened = StoreAccess::openReader(storePath);
        if (!opened || !opened.value()) return;
        store::RunReader* worker = opened.value().get();
        QHash<qint64, RunDetails> chunk;
        auto deliver = [&] {
            if (chunk.isEmpty()) return;
            QMetaObject::invokeMethod(
                this, [this, generation, chunk] { if (generation == generation_) Q_EMIT detailsReady(chunk); },
                Qt::QueuedConnection);
            chunk.clear();
        };
        for (qint64 id : ids) {
            if (stop->load()) return;
            chunk.insert(id, readDetails(*worker, id));
            if (chunk.size() >= kChunk) deliver();
        }
        deliver();
    }));
    return error_.isEmpty();
}

} // namespace sb::app
