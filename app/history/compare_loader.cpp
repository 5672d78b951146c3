#include "history/compare_loader.hpp"

#include "history/store_access.hpp"
#include "jobs/work_pool.hpp"

#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <limits>
#include <map>

namespace sb::app {

CompareLoader::CompareLoader(QObject* parent) : QObject(parent)
{
    connect(&watcher_, &QFutureWatcher<QList<ComparedRun>>::finished, this, [this] {
        if (reloadWhenDone_) {
            reloadWhenDone_ = false;
            load(pendingPath_, pending_);
            return;
        }
        runs_ = watcher_.result();
        Q_EMIT loaded();
    });
}

CompareLoader::~CompareLoader() { watcher_.waitForFinished(); }

void CompareLoader::load(const QString& storePath, const QList<qint64>& runIds)
{
    if (watcher_.isRunning()) {
        // The newest choice wins; it is read once the current read is done.
        pending_ = runIds;
        pendingPath_ = storePath;
        reloadWhenDone_ = true;
        return;
    }
    watcher_.setFuture(QtConcurrent::run(workPool(), [storePath, runIds] { return read(storePath, runIds); }));
}

QList<ComparedRun> CompareLoader::read(const QString& storePath, const QList<qint64>& runIds)
{
    QList<ComparedRun> out;
    Result<std::unique_ptr<store::RunReader>> opened = StoreAccess::openReader(storePath);
    if (!opened || !opened.value()) return out;
    store::RunReader* reader = opened.value().get();
    for (qint64 id : runIds) {
        const std::optional<store::RunRow> row = reader->run(id);
        if (!row) continue;
        ComparedRun c;
        c.id = id;
        c.name = row->name;
        c.status = row->status;
        c.planJson = row->planJson;
        c.ranks = readRankPeaks(*reader, *row);
        // step -> (attempt, t, loss, tokens/s, validation loss): the newest attempt of a step wins.
        struct Point {
            int attempt;
            double t, loss, rate, eval;
        };
        std::map<int, Point> points;
        reader->forEachStepRow(id, 0, [&](const store::MetricRow& r) {
            auto it = points.find(r.m.step);
            if (it == points.end() || it->second.attempt <= r.m.attempt)
                points[r.m.step] = Point{r.m.attempt, r.m.t, r.m.loss, r.m.tokensPerS, r.m.evalLoss};
        });
        c.byStep = std::make_shared<SeriesTable>(ComparedRun::ColumnCount);
        c.byTime = std::make_shared<SeriesTable>(ComparedRun::ColumnCount);
        c.byStep->reserve(static_cast<qsizetype>(points.size()));
        double t0 = points.empty() ? 0 : points.begin()->second.t;
        // Seconds from the run's first step; steps are in time order within a
        // run except across restarts, where the clock only moves on.
        double lastX = 0;
        for (const auto& [step, p] : points) {
            c.byStep->append(step, {p.loss, p.rate, p.eval});
            const double x = std::max(lastX, p.t - t0);
            c.byTime->append(x, {p.loss, p.rate, p.eval});
            lastX = x;
        }
        c.clockOrigin = std::isfinite(t0) ? t0 : 0; // this run's first step, until all are read
        out << c;
    }
    // On the wall clock, every run is shifted by its first step's distance from the earliest.
    double origin = std::numeric_limits<double>::infinity();
    for (const ComparedRun& c : out)
        if (!c.byTime->isEmpty()) origin = std::min(origin, c.clockOrigin);
    for (ComparedRun& c : out) {
        c.byClock = std::make_shared<SeriesTable>(ComparedRun::ColumnCount);
        const double shift = std::isfinite(origin) ? c.clockOrigin - origin : 0;
        for (qsizetype i = 0; i < c.byTime->size(); ++i) {
            double row[ComparedRun::ColumnCount];
            for (int column = 0; column < ComparedRun::ColumnCount; ++column) row[column] = c.byTime->value(column, i);
            c.byClock->append(c.byTime->x(i) + shift, row);
        }
        c.clockOrigin = std::isfinite(origin) ? origin : 0;
    }
    return out;
}

} // namespace sb::app
