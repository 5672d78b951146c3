// The run history at scale: a store of 1000 runs opens in the Runs area in
// under 200 ms (rows laid out and painted), the detail columns follow from a
// worker thread, and sorting and filtering work on all of them.
#include "gui_test_support.hpp"
#include "../status_checks.hpp"
#include "../run_store_fixture.hpp"

#include "models/compared_memory_model.hpp"
#include "models/live_run_model.hpp"
#include "models/runs_model.hpp"
#include "settings/run_settings.hpp"
#include "models/plan_diff_model.hpp"
#include "views/compare_view.hpp"
#include "views/compared_memory_chart.hpp"
#include "views/live_run_view.hpp"
#include "views/run_page.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "window/run_areas.hpp"
#include "window/runs_controller.hpp"

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"
#include "store/sqlite_run_store.hpp"

#include <QBarSet>
#include <QElapsedTimer>
#include <QLabel>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace sb::gui;
using sb::app::RunSettings;
using namespace sb::store::test;

namespace {

// A store of `runs` runs (GPT-2 124M plans, `steps` steps on 2 ranks each).
QString fillStore(const QString& path, int runs, int steps)
{
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(path);
    if (!opened) return qtMessage(opened);
    const std::unique_ptr<store::SqliteRunStore> store = std::move(opened).value();
    const QString plan = QString::fromStdString(planToString(defaultPlan(*presetConfig("gpt2-124m"))));
    for (int i = 0; i < runs; ++i) {
        store::NewRun r;
        r.uid = QStringLiteral("run-%1").arg(i, 5, 10, QLatin1Char('0'));
        r.name = QStringLiteral("sweep %1").arg(i);
        r.planJson = plan;
        r.backend = QStringLiteral("local");
        r.worldSize = 2;
        r.createdAt = 1.7e9 + i * 60;
        const Result<qint64> created = store->createRun(r);
        if (!created) return qtMessage(created);
        const qint64 id = created.value();
        for (int s = 1; s <= steps; ++s)
            for (int rank = 0; rank < 2; ++rank) {
                store::MetricRow m;
                m.runId = id;
                m.m.rank = rank;
                m.m.step = s;
                m.m.t = r.createdAt + s;
                m.m.loss = 10.0 - s * 0.01;
                m.m.tokensPerS = 1000 + i;
                m.m.memPeak = 1000000 + i * 10 + rank;
                if (i % 2 == 1 && s % 5 == 0) { // every other run took a validation loss every 5 steps
                    m.m.evalLoss = 10.5 - s * 0.01;
                    m.m.evalPerplexity = std::exp(m.m.evalLoss);
                }
                store->addStepMetrics(m);
            }
        store::RunUpdate u;
        u.runId = id;
        u.status = i % 10 == 3 ? store::RunStatus::Failed : store::RunStatus::Completed;
        u.startedAt = r.createdAt + 1;
        u.endedAt = r.createdAt + 1 + steps;
        u.stepsDone = steps;
        u.finalLoss = 10.0 - steps * 0.01;
        if (i % 10 == 3) u.reason = QStringLiteral("rank 1 on localhost exited with code 1");
        store->updateRun(u);
    }
    return qtMessage(store->flush());
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void thousandRunsOpenFast();
    void detachedRunsSayTheyRunOnTheCluster();
    void oneSelectedRunShowsItsChartsAndPlan();
    void comparedRunsShowEveryRanksPeakAgainstItsEstimate();
    void runsAreRenamedTaggedAndDeleted(); // deletes runs
    void aRunWhosePlanDoesNotReadSaysSo();

private:
    QTemporaryDir tmp_;
};

void TestHistory::initTestCase()
{
    test::isolateSettings();
    QVERIFY(tmp_.isValid());
    test::useRunFolder(tmp_.path());
    QCOMPARE(fillStore(RunSettings::storePath.value(), 1000, 20), QString());
}

void TestHistory::thousandRunsOpenFast()
{
    test::Workbench w;
    RunAreas* areas = w->areas();
    RunsView* view = areas->runsView();
    RunsController* history = areas->history();
    // Opening the Runs area loads the history; measure it as a person sees it
    // (reported, not asserted: this machine is shared).
    QElapsedTimer clock;
    clock.start();
    w->areaTabs()->setCurrentWidget(view);
    view->table()->viewport()->repaint();
    const double openMs = clock.nsecsElapsed() / 1e6;
    QCOMPARE(areas->runsModel()->rowCount(), 1000);
    // The table is painted before any run's details are read: those arrive
    // from a worker through the event loop, which has not run yet.
    QVERIFY(!areas->runsModel()->hasDetails(1));
    QVERIFY(!areas->runsModel()->hasDetails(1000));
    QSignalSpy details(history, &RunsController::detailsLoaded);
    QVERIFY(details.wait(10000) || areas->runsModel()->hasDetails(1));
    const double detailsMs = history->lastDetailsMs();
    qInfo("1000 runs: table shown in %.1f ms (store read %.1f ms), every detail in %.1f ms", openMs, history->lastRowsMs(), detailsMs);
    QVERIFY(areas->runsModel()->hasDetails(1000));
    const QModelIndex first = areas->runsModel()->index(areas->runsModel()->rowOfRun(1), RunsModel::PlanColumn);
    QVERIFY(first.data().toString().contains(QStringLiteral("gpt2-124m")));
    // Sorting by tokens/s puts the fastest run first; filtering finds the failures.
    view->table()->sortByColumn(RunsModel::RateColumn, Qt::DescendingOrder);
    QCOMPARE(view->proxy()->index(0, 0).data(RunsModel::RunIdRole).toLongLong(), 1000);
    view->filterEdit()->setText(QStringLiteral("exited with code 1"));
    QCOMPARE(view->proxy()->rowCount(), 100);
    view->filterEdit()->clear();
    view->statusFilter()->setCurrentIndex(view->statusFilter()->findData(QStringLiteral("failed")));
    QCOMPARE(view->proxy()->rowCount(), 100);
    // A reload keeps what it knows: only new or unfinished runs are read again.
    clock.restart();
    history->reload();
    view->table()->viewport()->repaint();
    qInfo("reload: %.1f ms", clock.nsecsElapsed() / 1e6);
    QVERIFY(!history->history()->detailsPending());
    QVERIFY(areas->runsModel()->hasDetails(1000));
}

// A single selected run showed empty axes: now it opens its page, with the
// Run area's charts, every rank's memory against the estimate, and its whole plan.
void TestHistory::oneSelectedRunShowsItsChartsAndPlan()
{
    test::Workbench w;
    RunAreas* areas = w->areas();
    RunsView* view = areas->runsView();
    w->areaTabs()->setCurrentWidget(view);
    QTRY_COMPARE(areas->runsModel()->rowCount(), 1000);
    RunPage* page = view->runPage();
    view->selectRuns({7});
    QVERIFY(view->showsRunPage());
    QTRY_COMPARE(page->runId(), 7);
    LiveRunView* run = page->runView();
    QCOMPARE(run->lossChart()->seriesCount(), 3); // raw, smoothed, validation
    run->lossChart()->refreshNow();
    QCOMPARE(run->lossChart()->drawnPoints(0), 20);
    QCOMPARE(run->lossChart()->drawnPoints(1), 20);
    QCOMPARE(run->lossChart()->drawnPoints(2), 0); // run 7 took no validation loss
    QVERIFY(!run->statusText().contains(QStringLiteral("validation loss")));
    QCOMPARE(run->lossChart()->xMax(), 20.0);
    QVERIFY(run->statusText().contains(QStringLiteral("step 20 of")));
    // Both ranks' peaks, next to the estimate of the recorded plan.
    const QList<LiveRunModel::RankMemory>& ranks = run->model()->ranks();
    QCOMPARE(ranks.size(), 2);
    QCOMPARE(ranks[1].peak, 1000000 + 6 * 10 + 1); // run 7 is the seventh written (i = 6)
    QVERIFY(ranks[1].predicted > 0);
    QVERIFY(page->detailsLabel()->text().contains(QStringLiteral("world size 2")));
    const QAbstractItemModel* plan = page->planTable()->model();
    QVERIFY(plan->rowCount() > 20);
    bool sawPreset = false;
    for (int r = 0; r < plan->rowCount(); ++r)
        sawPreset = sawPreset || plan->index(r, PlanDiffModel::FirstRunColumn).data().toString() == QStringLiteral("gpt2-124m");
    QVERIFY(sawPreset);
    // Another run replaces it, one that took a validation loss on steps 5, 10, 15 and 20.
    view->selectRuns({8});
    QTRY_COMPARE(page->runId(), 8);
    run->lossChart()->refreshNow();
    QCOMPARE(run->lossChart()->drawnPoints(2), 4);
    QVERIFY2(run->statusText().contains(QStringLiteral("validation loss 10.3")), qPrintable(run->statusText()));
    // Two are compared instead: each one's loss raw and smoothed, and run 8's validation loss.
    CompareView* compare = view->compareView();
    view->selectRuns({7, 8});
    QVERIFY(!view->showsRunPage());
    QTRY_COMPARE(compare->lossChart()->seriesCount(), 5);
    compare->lossChart()->refreshNow();
    QCOMPARE(compare->lossChart()->drawnPoints(4), 4);
    QCOMPARE(compare->diffTable()->model()->rowCount(), 0); // the same plan
}

// Compare's memory per rank, from a store of its own: 8 ranks that reported
// their peaks, 8 that reported none (read as such, not as zeros) and a run
// whose recorded plan does not read (no estimate).
void TestHistory::comparedRunsShowEveryRanksPeakAgainstItsEstimate()
{
    const QString path = tmp_.filePath(QStringLiteral("memory.sqlite"));
    Plan plan = defaultPlan(*presetConfig("gpt2-124m"));
    plan.mesh.procsPerNode = 8;
    const QString planJson = QString::fromStdString(planToString(plan));
    QList<qint64> ids;
    {
        QString error;
        auto storeOpened = store::SqliteRunStore::open(path);
        QVERIFY2(storeOpened, storeOpened.error().c_str());
        auto store = std::move(storeOpened).value();
        for (int run = 0; run < 3; ++run) {
            store::NewRun r;
            r.uid = QStringLiteral("memory-%1").arg(run);
            r.planJson = run < 2 ? planJson : QStringLiteral("{\"format\": 999}");
            r.backend = QStringLiteral("local");
            r.worldSize = run < 2 ? 8 : 2;
            r.createdAt = 1.7e9;
            ids << store->createRun(r).value();
            for (int rank = 0; rank < r.worldSize; ++rank) {
                store::MetricRow m;
                m.runId = ids.back();
                m.m.rank = rank;
                m.m.step = 1;
                m.m.t = r.createdAt + 1;
                m.m.loss = 10;
                m.m.memPeak = run == 1 ? 0 : (qint64{3} << 30) + rank * (qint64{1} << 20); // run 1 reported none
                store->addStepMetrics(m);
            }
        }
        SB_VERIFY_OK(store->flush());
    }
    std::vector<qint64> estimated;
    const LoadedPlan loaded = validateLoaded(planFromString(planJson.toStdString()));
    QVERIFY(loaded.ok());
    for (const RankEstimate& r : estimateMemory(loaded.plan, *loaded.tree).ranks) estimated.push_back(static_cast<qint64>(r.peakBytes));
    QCOMPARE(estimated.size(), std::size_t{8});

    CompareView compare;
    compare.resize(1366, 480);
    compare.setRuns(app::CompareLoader::read(path, ids));
    compare.tabs()->setCurrentIndex(1);
    const ComparedMemoryModel* model = compare.memoryModel();
    QCOMPARE(model->rowCount(), 2 * 3 + 6 * 2); // ranks 0 and 1 of the three runs, ranks 2 to 7 of the first two
    auto cell = [model](int row, int column, int role = Qt::DisplayRole) { return model->index(row, column).data(role); };
    for (int row = 0; row < model->rowCount(); ++row) {
        const int run = model->runOfRow(row);
        const int rank = cell(row, ComparedMemoryModel::RankColumn).toInt();
        QCOMPARE(cell(row, ComparedMemoryModel::RunColumn, ComparedMemoryModel::ValueRole).toLongLong(), ids[run]);
        const QVariant measured = cell(row, ComparedMemoryModel::MeasuredColumn, ComparedMemoryModel::ValueRole);
        const QVariant estimate = cell(row, ComparedMemoryModel::EstimatedColumn, ComparedMemoryModel::ValueRole);
        if (run == 1) {
            QVERIFY(!measured.isValid());
            QCOMPARE(cell(row, ComparedMemoryModel::MeasuredColumn).toString(), QStringLiteral("not reported"));
        } else {
            QCOMPARE(measured.toLongLong(), (qint64{3} << 30) + rank * (qint64{1} << 20));
        }
        if (run == 2) {
            QVERIFY(!estimate.isValid());
            QCOMPARE(cell(row, ComparedMemoryModel::EstimatedColumn).toString(), QStringLiteral("no estimate"));
        } else {
            QCOMPARE(estimate.toLongLong(), estimated[static_cast<std::size_t>(rank)]);
        }
        const QVariant difference = cell(row, ComparedMemoryModel::DifferenceColumn, ComparedMemoryModel::ValueRole);
        QCOMPARE(difference.isValid(), run == 0);
        if (run == 0)
            QVERIFY(std::abs(difference.toDouble() - (measured.toDouble() / estimate.toDouble() - 1) * 100) < 1e-9);
    }
    // The chart: run 0's bars both, run 1's estimate alone, run 2's measured alone; in GiB at this size.
    const ComparedMemoryChart* chart = compare.memoryChart();
    QCOMPARE(chart->unit(), 1024.0 * 1024 * 1024);
    QVERIFY(chart->measuredBars(0) && chart->estimatedBars(0));
    QVERIFY(!chart->measuredBars(1) && chart->estimatedBars(1));
    QVERIFY(chart->measuredBars(2) && !chart->estimatedBars(2));
    QCOMPARE(chart->measuredBars(0)->count(), 8);
    QCOMPARE(chart->measuredBars(0)->at(7), 3 + 7.0 / 1024);
    QCOMPARE(chart->estimatedBars(1)->at(7), estimated[7] / chart->unit());
    QVERIFY(chart->estimatedBars(1)->label().contains(QStringLiteral("reported no memory")));
    QVERIFY(chart->measuredBars(0)->label().endsWith(QStringLiteral(" %)")));
}

// A detached run that has not ended runs on its cluster, not in this
// workbench; once ended it reads like any other run.
void TestHistory::detachedRunsSayTheyRunOnTheCluster()
{
    store::RunRow detached;
    detached.id = 1;
    detached.status = QStringLiteral("running");
    detached.runDir = QStringLiteral("/scratch/runs/r1");
    store::RunRow ended = detached;
    ended.id = 2;
    ended.status = QStringLiteral("completed");
    store::RunRow here;
    here.id = 3;
    here.status = QStringLiteral("running"); // no launcher recorded: not known to be abandoned
    RunsModel model;
    model.setRuns({detached, ended, here});
    auto status = [&](qint64 id) { return model.index(model.rowOfRun(id), RunsModel::StatusColumn).data().toString(); };
    QCOMPARE(status(1), QStringLiteral("running on the cluster — not attached"));
    QCOMPARE(status(2), QStringLiteral("completed"));
    QCOMPARE(status(3), QStringLiteral("running"));
}

// The Runs context menu's actions: a name, tags and notes are written to the
// store and found by the filter; deleting takes runs out of every area, but
// never one that has not ended.
void TestHistory::runsAreRenamedTaggedAndDeleted()
{
    qint64 live = -1;
    {
        store::NewRun r = bareRun(QStringLiteral("still-running"), QStringLiteral("local"), 2, 1.8e9);
        r.planJson = QString::fromStdString(planToString(defaultPlan(ModelConfig{})));
        auto [store, id, error] = storeWithRun(RunSettings::storePath.value(), r);
        QVERIFY2(store, qPrintable(error));
        live = id;
        store::RunUpdate u;
        u.runId = live;
        u.status = store::RunStatus::Running; // no launcher recorded: not known to be abandoned
        store->updateRun(u);
        SB_VERIFY_OK(store->flush());
    }
    test::Workbench w;
    RunAreas* areas = w->areas();
    RunsView* view = areas->runsView();
    RunsModel* model = areas->runsModel();
    w->areaTabs()->setCurrentWidget(view);
    QTRY_COMPARE(model->rowCount(), 1001);

    QCOMPARE(areas->history()->annotateRun(7, QStringLiteral("lr 3e-4, the baseline"), {QStringLiteral("lr-sweep"), QStringLiteral("fp32")},
                                           QStringLiteral("loss spike at step 12: bad batch")),
             QString());
    QTRY_COMPARE(model->index(model->rowOfRun(7), RunsModel::NameColumn).data().toString(), QStringLiteral("lr 3e-4, the baseline"));
    QCOMPARE(model->index(model->rowOfRun(7), RunsModel::TagsColumn).data().toString(), QStringLiteral("lr-sweep, fp32"));
    view->filterEdit()->setText(QStringLiteral("lr-sweep"));
    QCOMPARE(view->proxy()->rowCount(), 1);
    view->filterEdit()->setText(QStringLiteral("bad batch")); // the notes
    QCOMPARE(view->proxy()->rowCount(), 1);
    view->filterEdit()->clear();

    QCOMPARE(areas->history()->deleteRuns({5, 6}), QString());
    QTRY_COMPARE(model->rowCount(), 999);
    QVERIFY(model->rowOfRun(5) < 0 && model->rowOfRun(6) < 0);
    QVERIFY(model->rowOfRun(4) >= 0);
    const QString refused = areas->history()->deleteRuns({8, live});
    QVERIFY2(refused.contains(QString::number(live)) && refused.contains(QStringLiteral("not ended")), qPrintable(refused));
    QCOMPARE(model->rowCount(), 999);
    QVERIFY(model->rowOfRun(8) >= 0); // nothing of a refused request is deleted
    QCOMPARE(areas->history()->deleteRuns({5}), QStringLiteral("There is no run 5 in the store."));
}

// A store row whose recorded plan is cut short: its page says so and shows
// no plan in its place (not the defaults), and its steps still draw.
void TestHistory::aRunWhosePlanDoesNotReadSaysSo()
{
    qint64 id = -1;
    {
        store::NewRun r = bareRun(QStringLiteral("cut-short"), QStringLiteral("local"), 1, 1.8e9);
        r.planJson = QStringLiteral("{\"format\": \"shardbench-plan\", \"model\": {\"dim\": ");
        auto opened = storeWithRun(RunSettings::storePath.value(), r);
        QVERIFY2(opened.store, qPrintable(opened.error));
        auto& store = opened.store;
        id = opened.id;
        for (int step = 1; step <= 2; ++step) {
            store::MetricRow m;
            m.runId = id;
            m.m.rank = 0;
            m.m.step = step;
            m.m.t = 1.8e9 + step;
            m.m.loss = 3.0;
            store->addStepMetrics(m);
        }
        store::RunUpdate u;
        u.runId = id;
        u.status = store::RunStatus::Completed;
        store->updateRun(u);
        SB_VERIFY_OK(store->flush());
    }
    test::Workbench w;
    RunsView* view = w->areas()->runsView();
    w->areaTabs()->setCurrentWidget(view);
    QTRY_VERIFY(w->areas()->runsModel()->rowOfRun(id) >= 0);
    view->selectRuns({id});
    QTRY_COMPARE(view->runPage()->runId(), id);
    QVERIFY2(view->runPage()->detailsLabel()->text().contains(QStringLiteral("its recorded plan cannot be read")),
             qPrintable(view->runPage()->detailsLabel()->text()));
    QCOMPARE(view->runPage()->planModel()->rowCount(), 0);
    view->runPage()->runView()->lossChart()->refreshNow();
    QCOMPARE(view->runPage()->runView()->lossChart()->drawnPoints(0), 2);
}

QTEST_MAIN(TestHistory)
#include "tst_gui_history.moc"
