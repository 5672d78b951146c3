// The PyTorch engine from the workbench: the Run area's Engine set to the
// plan's exported FSDP2 script under the project's real PyTorch 2.x
// ($SB_PYTHON) launches the tiny plan at W=2 on this machine; its steps reach
// the live charts, each rank's measured peak stands beside the estimate, and
// the store has every step. The same plan run by shardbench-core, selected
// with it in the Runs area, is overlaid in Compare: two runs, the same losses
// within 1e-5. Detached, the script is followed to its end like the core. A
// script of the user's with its own arguments (the repository's GPT-NeoX
// example, transformers' model) runs from the same panel.
#include "gui_test_support.hpp"

#include "history/store_access.hpp"
#include "models/live_run_model.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "views/compare_view.hpp"
#include "views/engine_chooser.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include "store/run_reader.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QScopeGuard>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
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
        QString error;
        auto reader = areas()->store()->openReader(&error);
        QVERIFY2(reader, qPrintable(error));
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

        QString error;
        auto reader = areas()->store()->openReader(&error);
        QVERIFY2(reader, qPrintable(error));
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
        QString error;
        auto reader = areas()->store()->openReader(&error);
        QVERIFY2(reader, qPrintable(error));
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
        QString error;
        auto reader = areas()->store()->openReader(&error);
        QVERIFY2(reader, qPrintable(error));
        int rows = 0, last = 0;
        reader->forEachStepRow(id, -1, [&](const store::MetricRow& r) {
            ++rows;
            last = std::max(last, r.m.step);
        });
        QCOMPARE(rows, 6); // 3 steps x 2 ranks: the script's --steps 3, not the plan's 8
        QCOMPARE(last, 3);
        engine->choiceBox()->setCurrentIndex(EngineChooser::Core);
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
        QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000);
        return s->runId();
    }

    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    qint64 pytorchRun_ = -1;
};

QTEST_MAIN(TestPytorchEngine)
#include "tst_gui_pytorch_engine.moc"
