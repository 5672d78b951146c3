// The PyTorch engine from the workbench: the Run area's Engine set to the
// plan's exported FSDP2 script under the project's real PyTorch 2.x
// ($SB_PYTHON) launches the tiny plan at W=2 on this machine; its steps reach
// the live charts, each rank's measured peak stands beside the estimate, and
// the store has every step. The same plan run by shardbench-core, selected
// with it in the Runs area, is overlaid in Compare: two runs, the same losses
// within 1e-5, and every rank's peak of each beside the estimate for its plan.
// Detached, the script is followed to its end like the core. A
// script of the user's with its own arguments (the repository's GPT-NeoX
// example, transformers' model) runs from the same panel. A PyTorch run's DCP
// checkpoints are listed in the Checkpoints area with their steps; one
// restored at 1 rank runs the parent's engine and Python from that step on,
// and saves into a folder of its own.
#include "gui_test_support.hpp"

#include "history/store_access.hpp"
#include "models/checkpoints_model.hpp"
#include "models/compared_memory_model.hpp"
#include "models/live_run_model.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "views/compare_view.hpp"
#include "views/checkpoints_view.hpp"
#include "views/compared_memory_chart.hpp"
#include "views/engine_chooser.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/restore_dialog.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "window/checkpoints_controller.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"
#include "store/run_reader.hpp"

#include <QBarSet>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QScopeGuard>
#include <QSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace sb;
using namespace sb::gui;

class TestPytorchEngine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings();
        QVERIFY(tmp_.isValid());
        QVERIFY2(!qEnvironmentVariable("SB_PYTHON").isEmpty(), "SB_PYTHON is not set (ctest sets it)");
        test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
        const QString plan = tmp_.filePath(QStringLiteral("p.json"));
        QCOMPARE(test::writeTinyPlan(plan, 8), QString());
        w_ = std::make_unique<test::Workbench>();
        w_->window->setInteractive(false);
        QVERIFY(w_->window->files()->openFile(plan));
        w_->window->areaTabs()->setCurrentWidget(w_->window->areas()->runArea());
    }

    void cleanupTestCase() { w_.reset(); }

    void theExportedScriptRunsFromTheRunArea()
    {
        EngineChooser* engine = areas()->launchPanel()->engineChooser();
        QVERIFY(!engine->pythonEdit()->isVisible());
        engine->choiceBox()->setCurrentIndex(EngineChooser::ExportedScript);
        QVERIFY(engine->pythonEdit()->isVisibleTo(engine));
        QVERIFY(!engine->scriptEdit()->isVisibleTo(engine));
        engine->pythonEdit()->setText(qEnvironmentVariable("SB_PYTHON"));
        pytorchRun_ = launch(QStringLiteral("pytorch"));
        QVERIFY(pytorchRun_ > 0);
        const RunSession* s = areas()->runs()->session();
        // The headline of a PyTorch run: each rank's measured peak beside the estimate.
        QCOMPARE(s->live()->ranks().size(), 2);
        for (const LiveRunModel::RankMemory& r : s->live()->ranks()) {
            QVERIFY(r.peak > 0);
            QVERIFY(r.predicted > 0);
        }
        QCOMPARE(areas()->liveView()->lossChart()->drawnPoints(0), 8);
        // The ranks were PyTorch's: their hello names its version.
        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        int hellos = 0;
        for (const store::EventRecord& e : reader->events(pytorchRun_))
            if (e.type == QLatin1String("hello") && e.json.contains("\"torch\":\"2.")) ++hellos;
        QCOMPARE(hellos, 2);
    }

    void aCoreRunAndAPytorchRunCompare()
    {
        QVERIFY(pytorchRun_ > 0);
        areas()->launchPanel()->engineChooser()->choiceBox()->setCurrentIndex(EngineChooser::Core);
        const qint64 coreRun = launch(QStringLiteral("core"));
        QVERIFY(coreRun > 0);

        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        QHash<QPair<int, int>, double> pt, core;
        reader->forEachStepRow(pytorchRun_, -1, [&](const store::MetricRow& r) { pt.insert({r.m.rank, r.m.step}, r.m.loss); });
        reader->forEachStepRow(coreRun, -1, [&](const store::MetricRow& r) { core.insert({r.m.rank, r.m.step}, r.m.loss); });
        QCOMPARE(pt.size(), 16);
        QCOMPARE(core.size(), 16);
        for (auto it = core.begin(); it != core.end(); ++it)
            QVERIFY2(std::abs(pt.value(it.key(), NAN) - it.value()) <= 1e-5, qPrintable(QString::number(it.key().second)));

        w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
        QVERIFY(QTest::qWaitFor([&] { return areas()->runsModel()->rowCount() >= 2; }, 5000));
        areas()->runsView()->selectRuns({pytorchRun_, coreRun});
        CompareView* compare = areas()->compareView();
        QVERIFY(QTest::qWaitFor([&] { return compare->runs().size() == 2; }, 10000));
        QCOMPARE(compare->lossChart()->seriesCount(), 4); // each run's raw and smoothed line
        compare->lossChart()->refreshNow();
        QCOMPARE(compare->lossChart()->drawnPoints(0), 8);
        QCOMPARE(compare->lossChart()->drawnPoints(1), 8);
    }

    // Compare's memory: for the PyTorch run and the core run, each rank's
    // measured peak as the store holds it, beside the estimator's peak for
    // the run's own recorded plan, in the table and in the chart.
    void theComparedRunsShowEachRanksPeakAgainstItsEstimate()
    {
        CompareView* compare = areas()->compareView();
        QCOMPARE(compare->runs().size(), 2);
        compare->tabs()->setCurrentIndex(1);
        QVERIFY(compare->memoryChart()->isVisible() && compare->memoryTable()->isVisible());
        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        const ComparedMemoryModel* model = compare->memoryModel();
        const ComparedMemoryChart* chart = compare->memoryChart();
        QCOMPARE(model->rowCount(), 4); // 2 ranks x 2 runs
        QStringList engines;
        std::vector<std::vector<qint64>> estimates;
        for (int run = 0; run < 2; ++run) {
            const qint64 id = compare->runs()[run].id;
            const std::optional<store::RunRow> row = reader->run(id);
            QVERIFY(row);
            engines << row->engine;
            const LoadedPlan plan = validateLoaded(planFromString(row->planJson.toStdString()));
            QVERIFY(plan.ok());
            const Estimate estimate = estimateMemory(plan.plan, *plan.tree);
            QCOMPARE(estimate.ranks.size(), std::size_t{2});
            estimates.emplace_back();
            for (const store::RankSummary& s : reader->rankSummaries(id)) {
                const qint64 measured = s.peakMem;
                const auto estimated = static_cast<qint64>(estimate.ranks[static_cast<std::size_t>(s.rank)].peakBytes);
                estimates.back().push_back(estimated);
                QVERIFY(measured > 0);
                QVERIFY(estimated > 0);
                // Its row in the table: ranks in order, each rank's runs in the order compared.
                const int r = s.rank * 2 + run;
                auto value = [&](int column) { return model->index(r, column).data(ComparedMemoryModel::ValueRole); };
                QCOMPARE(value(ComparedMemoryModel::RunColumn).toLongLong(), id);
                QCOMPARE(value(ComparedMemoryModel::RankColumn).toInt(), s.rank);
                QCOMPARE(value(ComparedMemoryModel::MeasuredColumn).toLongLong(), measured);
                QCOMPARE(value(ComparedMemoryModel::EstimatedColumn).toLongLong(), estimated);
                const double percent = (static_cast<double>(measured) / static_cast<double>(estimated) - 1) * 100;
                QVERIFY(std::abs(value(ComparedMemoryModel::DifferenceColumn).toDouble() - percent) < 1e-9);
                QVERIFY(model->index(r, ComparedMemoryModel::DifferenceColumn).data().toString().endsWith(QStringLiteral(" %")));
                // Its bars: the measured peak solid, the estimate beside it.
                QVERIFY(chart->measuredBars(run) && chart->estimatedBars(run));
                QVERIFY(std::abs(chart->measuredBars(run)->at(s.rank) * chart->unit() - static_cast<double>(measured)) < 1);
                QVERIFY(std::abs(chart->estimatedBars(run)->at(s.rank) * chart->unit() - static_cast<double>(estimated)) < 1);
            }
            QCOMPARE(estimates.back().size(), std::size_t{2});
        }
        // Both engines ran the one plan: the same estimate; the ranks' own peaks are their engines'.
        engines.sort();
        QCOMPARE(engines, QStringList({QString(), QStringLiteral("pytorch")}));
        QCOMPARE(estimates[0], estimates[1]);
        QCOMPARE(chart->csv().count('\n'), 5);
    }

    void aDetachedPytorchRunIsFollowed()
    {
        LaunchPanel* panel = areas()->launchPanel();
        panel->engineChooser()->choiceBox()->setCurrentIndex(EngineChooser::ExportedScript);
        panel->detachBox()->setChecked(true);
        const auto attached = qScopeGuard([panel] { panel->detachBox()->setChecked(false); });
        panel->nameEdit()->setText(QStringLiteral("pytorch-detached"));
        RunController* rc = areas()->runs();
        QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
        QVERIFY2(QTest::qWaitFor([&] { return rc->attached() != nullptr; }, 120000), qPrintable(panel->messageLabel()->text()));
        QVERIFY(QTest::qWaitFor([&] { return rc->attached()->isFinished(); }, 180000));
        QVERIFY2(rc->attached()->followError().isEmpty(), qPrintable(rc->attached()->followError()));
        QVERIFY(QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000));
        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        const store::RunRow row = reader->listRuns(1).value(0);
        QCOMPARE(row.name, QStringLiteral("pytorch-detached"));
        QCOMPARE(row.status, QStringLiteral("completed"));
        QVERIFY(row.isDetached());
        QVERIFY(QFile::exists(row.runDir + QStringLiteral("/train.py")));
        int steps = 0;
        reader->forEachStepRow(row.id, -1, [&](const store::MetricRow&) { ++steps; });
        QCOMPARE(steps, 16);
    }

    void aScriptOfMineWithItsArguments()
    {
        EngineChooser* engine = areas()->launchPanel()->engineChooser();
        engine->choiceBox()->setCurrentIndex(EngineChooser::OwnScript);
        QVERIFY(engine->scriptEdit()->isVisibleTo(engine) && engine->argumentsEdit()->isVisibleTo(engine));
        engine->scriptEdit()->setText(qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/examples/pytorch/train_gpt_neox_fsdp2.py"));
        engine->argumentsEdit()->setText(QStringLiteral("--steps 3 --hidden 32"));
        const qint64 id = launch(QStringLiteral("neox"));
        QVERIFY(id > 0);
        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        int rows = 0, last = 0;
        reader->forEachStepRow(id, -1, [&](const store::MetricRow& r) {
            ++rows;
            last = std::max(last, r.m.step);
        });
        QCOMPARE(rows, 6); // 3 steps x 2 ranks: the script's --steps 3, not the plan's 8
        QCOMPARE(last, 3);
        engine->choiceBox()->setCurrentIndex(EngineChooser::Core);
    }

    void aDcpCheckpointRestoresAtAnotherWorldSize()
    {
        // The tiny plan with a DCP checkpoint every 4 of 8 steps, by the exported script at 2 ranks.
        const QString root = tmp_.filePath(QStringLiteral("dcp"));
        const QString plan = tmp_.filePath(QStringLiteral("checkpointed.json"));
        QCOMPARE(test::writeTinyPlan(plan, 8, {QStringLiteral("--checkpoint-dir"), root, QStringLiteral("--checkpoint-interval"),
                                               QStringLiteral("4")}),
                 QString());
        QVERIFY(w_->window->files()->openFile(plan));
        w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
        EngineChooser* engine = areas()->launchPanel()->engineChooser();
        engine->choiceBox()->setCurrentIndex(EngineChooser::ExportedScript);
        engine->pythonEdit()->setText(qEnvironmentVariable("SB_PYTHON"));
        const auto core = qScopeGuard([engine] { engine->choiceBox()->setCurrentIndex(EngineChooser::Core); });
        const qint64 parent = launch(QStringLiteral("saves"));
        QVERIFY(parent > 0);

        CheckpointsController* c = areas()->checkpoints();
        CheckpointsModel* model = areas()->checkpointsModel();
        c->showRun(parent);
        QCOMPARE(model->rowCount(), 2);
        auto reader = areas()->store()->openReader().valueOr(nullptr);
        QVERIFY(reader);
        const QString parentUid = reader->run(parent)->uid;
        for (int row = 0; row < 2; ++row) {
            const app::CheckpointEntry& e = model->entry(row);
            QCOMPARE(e.step, 4 * (row + 1));
            QCOMPARE(e.kind, QStringLiteral("dcp"));
            QCOMPARE(e.worldSize, 2);
            QVERIFY(e.bytes > 0);
            QVERIFY2(e.restorable(), qPrintable(e.message));
            QVERIFY(e.path.startsWith(QDir(root).absoluteFilePath(parentUid) + QLatin1Char('/')));
        }
        QCOMPARE(model->data(model->index(0, CheckpointsModel::KindColumn)).toString(), QStringLiteral("DCP (PyTorch)"));
        CheckpointsView* view = areas()->checkpointsView();
        view->selectRow(0);
        QVERIFY(view->restoreButton()->isEnabled());
        QVERIFY(!view->verifyButton()->isEnabled()); // the core's format only

        const QString checkpoint = model->entry(0).path;
        std::unique_ptr<RestoreDialog> dialog(c->makeRestoreDialog(0));
        QVERIFY(dialog);
        QCOMPARE(dialog->worldSizeBox()->value(), 2);
        dialog->worldSizeBox()->setValue(1); // DCP reshards it as the script loads it
        QVERIFY2(dialog->isValid(), qPrintable(dialog->problemsLabel()->text()));
        QCOMPARE(dialog->request().config.engine, launch::Engine::PyTorch);
        RunController* rc = areas()->runs();
        const RunSession* before = rc->session();
        QTest::mouseClick(dialog->restoreButton(), Qt::LeftButton);
        QVERIFY2(QTest::qWaitFor([&] { return rc->session() != before; }, 120000),
                 qPrintable(areas()->launchPanel()->messageLabel()->text()));
        RunSession* s = rc->session();
        QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 180000));
        QCOMPARE(s->status(), store::RunStatus::Completed);
        QCOMPARE(s->live()->firstStep(), 5);
        QCOMPARE(s->live()->lastStep(), 8);
        QVERIFY(QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000));

        reader = areas()->store()->openReader().valueOr(nullptr);
        const std::optional<store::RunRow> child = reader->run(s->runId());
        QVERIFY(child);
        QCOMPARE(child->engine, QStringLiteral("pytorch"));
        QCOMPARE(child->python, qEnvironmentVariable("SB_PYTHON"));
        QCOMPARE(child->parentRun, parent);
        QCOMPARE(child->resumedFrom, checkpoint);
        QCOMPARE(child->worldSize, 1);
        // Its checkpoint of step 8 is its own, beside the parent's, which are all still there.
        c->showRun(s->runId());
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->entry(0).step, 8);
        QCOMPARE(model->entry(0).worldSize, 1);
        QVERIFY(model->entry(0).path.startsWith(QDir(root).absoluteFilePath(child->uid) + QLatin1Char('/')));
        c->showRun(parent);
        QCOMPARE(model->rowCount(), 2);
    }

private:
    RunAreas* areas() const { return w_->window->areas(); }

    // Launches the open plan from the Run area and waits for its end; its run id.
    qint64 launch(const QString& name)
    {
        LaunchPanel* panel = areas()->launchPanel();
        panel->nameEdit()->setText(name);
        RunController* rc = areas()->runs();
        const RunSession* before = rc->session();
        QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return rc->session() != before && rc->session() != nullptr; }, 120000)) {
            qWarning("not launched: %s", qPrintable(panel->messageLabel()->text()));
            return -1;
        }
        RunSession* s = rc->session();
        if (!QTest::qWaitFor([&] { return s->isFinished(); }, 180000) || s->status() != store::RunStatus::Completed) {
            qWarning("run %s did not complete", qPrintable(name));
            return -1;
        }
        if (!QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000)) qWarning("run %s: not idle after it ended", qPrintable(name));
        return s->runId();
    }

    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    qint64 pytorchRun_ = -1;
};

QTEST_MAIN(TestPytorchEngine)
#include "tst_gui_pytorch_engine.moc"
