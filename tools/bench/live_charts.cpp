// Live charts and run history at scale (docs/performance.md, "Workbench:
// live charts and history"):
//  1. decimation of a 1M-point series to a plot's width (M4: first, lowest,
//     highest and last point per pixel), and that a single spike survives;
//  2. the Run area's charts at 1M points per series: a full redraw (decimate,
//     hand the points to Qt Charts, lay out, paint) per chart, a new step
//     appended, and a move of the smoothing slider (the EMA recomputed);
//  3. opening the Runs area on a store of 1000 runs;
//  4. with --core PATH: a real run of the tiny plan, from each step's print by
//     shardbench-core to its paint on the loss chart.
//
//   shardbench-gui-chart-bench [--points N] [--repeats N] [--runs N] [--core PATH --steps N]
//   (offscreen unless QT_QPA_PLATFORM is set)
#include "history/series_table.hpp"
#include "history/store_access.hpp"
#include "models/live_run_model.hpp"
#include "models/parallel_axes.hpp"
#include "models/run_log_model.hpp"
#include "models/runs_group_proxy.hpp"
#include "models/runs_model.hpp"
#include "run/launch_request.hpp"
#include "session/run_session.hpp"
#include "settings/run_settings.hpp"
#include "views/compare_view.hpp"
#include "views/live_run_view.hpp"
#include "views/rank_memory_chart.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "window/runs_controller.hpp"

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"
#include "store/sqlite_run_store.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

using namespace sb;
using namespace sb::gui;
using sb::app::LaunchRequest;
using sb::app::PreparedRun;
using sb::app::RunSettings;
using sb::app::SeriesTable;
using sb::app::StoreAccess;
using sb::app::prepareRun;

namespace {

double ms(qint64 ns) { return static_cast<double>(ns) / 1e6; }

double percentile(std::vector<double> v, double q)
{
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
}

void report(const char* what, const std::vector<double>& v)
{
    std::printf("  %-58s median %7.2f ms   p90 %7.2f ms   max %7.2f ms   (n=%zu)\n", what, percentile(v, 0.5),
                percentile(v, 0.9), percentile(v, 1.0), v.size());
}

bool waitFor(const std::function<bool()>& done, int timeoutMs = 10000)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
    return true;
}

// From `change` until the chart has painted, after `shown` holds when given
// (the change reached the chart's series).
double redraw(ChartViewBase* chart, const std::function<void()>& change, const std::function<bool()>& shown = {})
{
    QElapsedTimer t;
    t.start();
    change();
    quint64 before = chart->paintCount();
    if (shown) {
        if (!waitFor(shown)) return std::nan("");
        before = chart->paintCount();
    }
    if (!waitFor([&] { return chart->paintCount() > before; })) return std::nan("");
    return ms(t.nsecsElapsed());
}

protocol::StepMetrics syntheticStep(int step, int rank)
{
    protocol::StepMetrics m;
    m.rank = rank;
    m.step = step;
    m.steps = 0;
    m.t = 1.7e9 + step * 0.01;
    // A noisy decaying loss with rare spikes, as long runs have.
    const double noise = std::sin(step * 12.9898) * 43758.5453;
    m.loss = 2.0 + 8.0 * std::exp(-step / 2e5) + 0.05 * (noise - std::floor(noise)) + (step % 99991 == 0 ? 3.0 : 0.0);
    m.tokensPerS = 50000 + 2000 * std::sin(step * 1e-4);
    m.forwardMs = 10 + std::sin(step * 3e-4);
    m.backwardMs = 20 + std::cos(step * 3e-4);
    m.optimizerMs = 3;
    m.commExposedMs = 2 + (step % 5000 == 0 ? 40 : 0);
    m.stepMs = m.forwardMs + m.backwardMs + m.optimizerMs + m.commExposedMs + 1;
    m.memCurrent = 1000000000 + rank * 1000;
    m.memPeak = 1500000000 + rank * 1000;
    return m;
}

void benchDecimation(int points, int repeats)
{
    std::printf("Decimation of one series of %d points to 1000 pixels:\n", points);
    SeriesTable t(1);
    t.reserve(points);
    QElapsedTimer clock;
    clock.start();
    for (int i = 1; i <= points; ++i) t.append(i, {std::sin(i * 1e-3) + (i == points / 3 ? 50.0 : 0.0)});
    std::printf("  %-58s %7.1f ms (%.0f ns a point)\n", "append (with the min/max pyramid)", ms(clock.nsecsElapsed()),
                clock.nsecsElapsed() / static_cast<double>(points));
    std::vector<double> full, zoomed;
    QList<QPointF> drawn;
    for (int r = 0; r < repeats; ++r) {
        clock.restart();
        drawn = t.decimated(0, 1, points, 1000);
        full.push_back(ms(clock.nsecsElapsed()));
        clock.restart();
        (void)t.decimated(0, points * 0.4, points * 0.6, 1000);
        zoomed.push_back(ms(clock.nsecsElapsed()));
    }
    report("whole range", full);
    report("a 20 % window", zoomed);
    const bool spike = std::any_of(drawn.begin(), drawn.end(), [&](const QPointF& p) { return p.y() > 40; });
    std::printf("  %zu points drawn; the single spike among %d points is %s\n", static_cast<std::size_t>(drawn.size()), points,
                spike ? "kept" : "LOST");
}

void benchLiveCharts(int points, int repeats)
{
    std::printf("Run area at %d steps per series (2 ranks; 4 charts, 8 lines and bands):\n", points);
    LiveRunModel live;
    live.reset(2, points + 1000, {1400000000, 1400000000});
    RunLogModel logs;
    QElapsedTimer clock;
    clock.start();
    for (int s = 1; s <= points; ++s) {
        live.log(syntheticStep(s, 0));
        if (s % 1000 == 0) live.log(syntheticStep(s, 1));
    }
    std::printf("  %-58s %7.1f ms\n", "feeding the steps into the live model", ms(clock.nsecsElapsed()));
    LiveRunView view;
    view.resize(1500, 900);
    view.show();
    view.setRun(&live, &logs, 2, 1, QStringLiteral("bench"));
    waitFor([&] { return view.lossChart()->paintCount() > 0; });
    for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();

    const std::pair<const char*, SeriesChart*> charts[] = {
        {"loss (raw + smoothed: 2 x 1M points)", view.lossChart()},
        {"tokens/s (1M points)", view.rateChart()},
        {"step time (4 stacked bands + total: 9 x 1M points)", view.timeChart()}};
    for (const auto& [name, chart] : charts) {
        std::vector<double> v, decimate;
        for (int r = 0; r < repeats; ++r) {
            v.push_back(redraw(chart, [chart = chart] { chart->refreshNow(); }));
            decimate.push_back(chart->lastRefreshMs());
        }
        report((QStringLiteral("full redraw: ") + QString::fromLatin1(name)).toLatin1().constData(), v);
        report("  of which decimation and handing over the points", decimate);
    }
    std::vector<double> memory;
    for (int r = 0; r < repeats; ++r) memory.push_back(redraw(view.memoryChart(), [&] { view.memoryChart()->refreshNow(); }));
    report("full redraw: memory per rank (bars + estimate)", memory);

    // A new step: the model grows, the coalesced refresh redraws the loss chart.
    std::vector<double> step;
    int next = points + 1;
    for (int r = 0; r < repeats; ++r) {
        const int s = next++;
        step.push_back(redraw(view.lossChart(), [&] { live.log(syntheticStep(s, 0)); },
                              [&] { return view.lossChart()->drawnXMax() >= s; }));
    }
    report("a new step until painted (incl. the 30 ms refresh coalescing)", step);
    std::vector<double> smoothing;
    for (int r = 0; r < repeats; ++r) {
        smoothing.push_back(redraw(view.lossChart(), [&] { view.smoothingSlider()->setValue(r % 2 ? 60 : 90); },
                                   [&] { return !view.lossChart()->isRefreshPending(); }));
    }
    report("smoothing slider moved (EMA of 1M points recomputed)", smoothing);
}

QString fillStore(const QString& path, int runs, int steps)
{
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(path);
    if (!opened) return qtMessage(opened);
    const std::unique_ptr<store::SqliteRunStore> store = std::move(opened).value();
    const QString plan = QString::fromStdString(planToString(defaultPlan(*presetConfig("gpt2-124m"))));
    for (int i = 0; i < runs; ++i) {
        store::NewRun r;
        r.uid = QStringLiteral("bench-%1").arg(i);
        r.name = QStringLiteral("sweep %1").arg(i);
        r.planJson = plan;
        r.backend = QStringLiteral("local");
        r.worldSize = 8;
        r.createdAt = 1.7e9 + i * 60;
        const Result<qint64> created = store->createRun(r);
        if (!created) return qtMessage(created);
        const qint64 id = created.value();
        for (int s = 1; s <= steps; ++s)
            for (int rank = 0; rank < 8; ++rank) {
                store::MetricRow m{id, syntheticStep(s, rank)};
                store->addStepMetrics(m);
            }
        store::RunUpdate u;
        u.runId = id;
        u.status = store::RunStatus::Completed;
        u.startedAt = r.createdAt;
        u.endedAt = r.createdAt + steps;
        u.stepsDone = steps;
        u.finalLoss = 2.5;
        store->updateRun(u);
    }
    return qtMessage(store->flush());
}

void benchHistory(const QString& dir, int runs, int repeats)
{
    const int steps = 100;
    const QString path = dir + QStringLiteral("/history.sqlite");
    QElapsedTimer clock;
    clock.start();
    if (const QString e = fillStore(path, runs, steps); !e.isEmpty()) {
        std::printf("cannot fill the store: %s\n", qPrintable(e));
        return;
    }
    std::printf("Runs area on a store of %d runs (GPT-2 124M plans, %d steps x 8 ranks each; filled in %.1f s):\n", runs, steps,
                clock.elapsed() / 1000.0);
    RunSettings::storePath.setValue(path);
    std::vector<double> open, details, rows;
    for (int r = 0; r < repeats; ++r) {
        StoreAccess store;
        RunsModel model;
        auto* compare = new CompareView;
        RunsView view(&model, compare);
        view.resize(1500, 900);
        view.show();
        RunsController controller(&store, &model, &view);
        bool detailsDone = false;
        QObject::connect(&controller, &RunsController::detailsLoaded, [&] { detailsDone = true; });
        QElapsedTimer exposed;
        exposed.start();
        waitFor([&] { return exposed.elapsed() > 300; }); // shown and laid out, as when the tab opens
        QElapsedTimer t;
        t.start();
        controller.reload();
        view.table()->viewport()->repaint();
        open.push_back(ms(t.nsecsElapsed()));
        rows.push_back(controller.lastRowsMs());
        waitFor([&] { return detailsDone; }, 30000);
        details.push_back(controller.lastDetailsMs());
    }
    report("rows read, laid out and painted (what a person sees)", open);
    report("  of which reading the run table and filling the model", rows);
    report("every detail column filled (worker thread)", details);
}

void benchLiveRun(const QString& dir, const QString& core, int steps)
{
    std::printf("A real run (tiny plan, 2 ranks, %d steps) from the core's print to the loss chart's paint:\n", steps);
    RunSettings::launchDir.setValue(dir + QStringLiteral("/launches"));
    LaunchRequest request;
    request.plan = defaultPlan(tutorialTransformer(64, 32, 2, 2, 128, 16));
    request.plan.training.microBatch = 2;
    request.plan.training.seqLen = 16;
    request.plan.training.steps = steps;
    request.config.name = QStringLiteral("latency bench");
    const PreparedRun prepared = prepareRun(request, {}, core, {}, {});
    if (!prepared.ok()) {
        std::vector<launch::RunConfigProblem> errors = prepared.result.errors;
        if (prepared.writeProblem) errors.push_back(*prepared.writeProblem);
        std::printf("  cannot prepare: %s\n", qPrintable(launch::runConfigMessages(errors).join(QStringLiteral("; "))));
        return;
    }
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(dir + QStringLiteral("/live.sqlite"));
    if (!opened) {
        std::printf("  cannot open the store: %s\n", opened.error().c_str());
        return;
    }
    std::shared_ptr<store::SqliteRunStore> store = std::move(opened).value();
    RunSession session(std::make_shared<app::SupervisedRun>(prepared.result.launch, store, nullptr), {});
    LiveRunView view;
    view.resize(1500, 900);
    view.show();
    view.setRun(session.live(), session.logs(), 2, session.runId(), request.config.name);
    session.supervisor()->start();
    if (!waitFor([&] { return session.isFinished(); }, 600000)) {
        std::printf("  the run did not finish\n");
        return;
    }
    waitFor([&] { return view.lastPaintedStep() >= steps; }, 2000);
    const std::vector<double> v(view.screenLatenciesMs().begin(), view.screenLatenciesMs().end());
    std::printf("  status %s, %d steps; the chart painted %zu times while steps arrived (refreshes are coalesced)\n",
                qPrintable(store::statusName(session.status())), session.live()->lastStep(), v.size());
    report("print to paint", v);
}

// A sweep in which every run has its own learning rate: the Runs table
// grouped by it, and the parallel coordinates read, over `runs` rows.
void benchSweep(int runs, int repeats)
{
    std::printf("A sweep of %d runs, each its own learning rate:\n", runs);
    QStandardItemModel table(runs, RunsModel::ColumnCount);
    for (int row = 0; row < runs; ++row) {
        table.setData(table.index(row, 0), row, RunsModel::RunIdRole);
        table.setData(table.index(row, RunsModel::LrColumn), 1e-4 * (1 + row * 1e-4), RunsModel::ValueRole);
        table.setData(table.index(row, RunsModel::WorldColumn), double(8 << (row % 4)), RunsModel::ValueRole);
        table.setData(table.index(row, RunsModel::ReshardColumn), QStringLiteral("k = %1").arg(row % 7), RunsModel::ValueRole);
        table.setData(table.index(row, RunsModel::LossColumn), 3.0 - row * 1e-5, RunsModel::ValueRole);
    }
    std::vector<double> group, axes;
    for (int r = 0; r < repeats; ++r) {
        QElapsedTimer clock;
        clock.start();
        RunsGroupProxy proxy;
        proxy.setGroupColumn(RunsModel::LrColumn);
        proxy.setSourceModel(&table);
        group.push_back(ms(clock.nsecsElapsed()));
        if (proxy.rowCount() != 2 * runs) std::printf("  %d rows grouped, %d expected\n", proxy.rowCount(), 2 * runs);
        clock.restart();
        const ParallelData data =
            readParallelData(table, RunsModel::planFieldColumns(), RunsModel::ValueRole, RunsModel::RunIdRole, RunsModel::LossColumn);
        axes.push_back(ms(clock.nsecsElapsed()));
        if (data.runs.size() != runs) std::printf("  %lld runs read\n", static_cast<long long>(data.runs.size()));
    }
    report("grouped by learning rate (RunsGroupProxy)", group);
    report("parallel coordinates read (readParallelData)", axes);
}

} // namespace

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int points = 1000000, repeats = 30, runs = 1000, steps = 2000, sweep = 10000;
    QString core;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--points") == 0) points = std::max(1000, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--core") == 0) core = QString::fromLocal8Bit(argv[i + 1]);
        else if (std::strcmp(argv[i], "--steps") == 0) steps = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--sweep") == 0) sweep = std::max(1, std::atoi(argv[i + 1]));
    }
    QTemporaryDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    std::printf("platform %s\n", qPrintable(QGuiApplication::platformName()));
    benchDecimation(points, repeats);
    benchLiveCharts(points, repeats);
    benchHistory(dir.path(), runs, std::max(3, repeats / 6));
    benchSweep(sweep, std::max(3, repeats / 6));
    if (!core.isEmpty()) benchLiveRun(dir.path(), core, steps);
    return 0;
}
