// A user's first run with their own model and data, from the workbench:
// File > New plan from a Hugging Face model folder (a tiny Qwen3 saved by
// transformers, a 70,000-token vocabulary) fills "Start from weights"; the
// Megatron-LM training and validation files (int32 tokens) and the mesh are
// set in Setup; Launch with "Keep running" starts a detached run whose
// validation loss is drawn beside the loss; Checkpoints > Export for Hugging
// Face writes a folder transformers loads, and transformers' loss of it on
// the validation samples is the core's last validation loss. The model and
// data come from tests/launcher/support/hf_journey.py ($SB_PYTHON).
#include "gui_test_support.hpp"
#include "hf_journey.hpp"

#include "history/store_access.hpp"
#include "models/checkpoints_model.hpp"
#include "models/live_run_model.hpp"
#include "session/attached_run.hpp"
#include "views/checkpoints_view.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/mesh_panel.hpp"
#include "views/number_field.hpp"
#include "views/series_chart.hpp"
#include "views/training_panel.hpp"
#include "window/checkpoints_controller.hpp"
#include "window/file_controller.hpp"
#include "window/main_window.hpp"
#include "document/plan_document.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include "store/run_reader.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace sb::gui;

namespace {

constexpr double kTolerance = 1e-5; // transformers against the core, fp32, relative
constexpr int kSeq = 16, kMicroBatch = 2, kWorld = 2, kEvalBatches = 2, kSteps = 4;

QString s(const char* text) { return QString::fromLatin1(text); }

void type(QWidget* field, const QString& text)
{
    field->setFocus();
    if (auto* edit = qobject_cast<QLineEdit*>(field)) edit->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

void choose(QComboBox* box, int index)
{
    box->setCurrentIndex(index);
    Q_EMIT box->activated(index);
}

} // namespace

class TestHfJourney : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fromAModelFolderToTransformers();
    void cleanupTestCase() { w_.reset(); }

private:
    QTemporaryDir tmp_;
    std::unique_ptr<gui::test::Workbench> w_;
};

void TestHfJourney::initTestCase()
{
    gui::test::isolateSettings();
    QVERIFY(tmp_.isValid());
    gui::test::useRunFolder(tmp_.filePath(s("work")));
    SB_REQUIRE_TRANSFORMERS();
    QVERIFY(!sb::test::hfJourney({s("prepare"), tmp_.path()}).isNull());
    w_ = std::make_unique<gui::test::Workbench>();
    w_->window->setInteractive(false);
}

void TestHfJourney::fromAModelFolderToTransformers()
{
    MainWindow* window = w_->window.get();
    RunAreas* areas = window->areas();
    const QString model = tmp_.filePath(s("qwen3"));
    QVERIFY(window->files()->newPlanFromHfFolder(model));
    QCOMPARE(window->document()->plan().model.arch, Arch::Qwen3);
    QCOMPARE(window->document()->plan().model.vocabSize, 70000);
    QCOMPARE(areas->launchPanel()->initFromEdit()->text(), QFileInfo(model).absoluteFilePath());

    // Two CPU ranks on this machine.
    MeshPanel* mesh = window->meshPanel();
    for (int i = 0; i < mesh->deviceBox()->count(); ++i)
        if (mesh->deviceBox()->itemText(i) == MeshPanel::tr("CPU RAM") || mesh->deviceBox()->itemText(i).contains(s("CPU"))) choose(mesh->deviceBox(), i);
    QCOMPARE(window->document()->plan().mesh.device, Device::Cpu);
    type(mesh->procsBox(), QString::number(kWorld));
    QCOMPARE(window->document()->plan().mesh.worldSize(), kWorld);

    // The user's data: Megatron files, a validation file of their own, a checkpoint every 2 steps.
    TrainingPanel* training = window->trainingPanel();
    choose(training->dataKindBox(), training->dataKindBox()->findData(s("tokens")));
    type(training->dataPathEdit(), tmp_.filePath(s("train")));
    type(training->evalPathEdit(), tmp_.filePath(s("val"))); // turns the validation loss on
    type(training->numberField(s("eval.batches")), QString::number(kEvalBatches));
    type(training->numberField(s("eval.every")), s("2"));
    type(training->stepsBox(), QString::number(kSteps));
    type(training->seqLenBox(), QString::number(kSeq));
    type(training->microBatchBox(), QString::number(kMicroBatch));
    const QString checkpoints = tmp_.filePath(s("ckpt"));
    type(training->checkpointDirEdit(), checkpoints);
    type(training->checkpointIntervalBox(), s("2"));
    const Plan& plan = window->document()->plan();
    QCOMPARE(plan.training.eval.path, tmp_.filePath(s("val")).toStdString());
    QCOMPARE(plan.training.eval.batches, kEvalBatches);
    QCOMPARE(plan.training.steps, kSteps);
    QVERIFY(window->files()->saveTo(tmp_.filePath(s("qwen3.plan.json"))));

    // Launch, kept running where it runs, from the weights.
    window->areaTabs()->setCurrentWidget(areas->runArea());
    type(areas->launchPanel()->nameEdit(), s("journey"));
    areas->launchPanel()->detachBox()->setChecked(true);
    RunController* rc = areas->runs();
    QTest::mouseClick(areas->launchPanel()->launchButton(), Qt::LeftButton);
    QVERIFY2(QTest::qWaitFor([&] { return rc->attached() != nullptr; }, 120000), qPrintable(areas->launchPanel()->messageLabel()->text()));
    AttachedRun* run = rc->attached();
    const qint64 id = run->runId();
    QVERIFY2(QTest::qWaitFor([&] { return run->isFinished(); }, 180000), qPrintable(areas->launchPanel()->messageLabel()->text()));
    QCOMPARE(run->status(), store::RunStatus::Completed);
    // The validation loss, drawn with the loss: steps 2 and 4.
    LiveRunView* live = areas->liveView();
    // The loss chart's lines: the loss, its smoothing, the validation loss (id 2).
    QVERIFY(QTest::qWaitFor([&] { return live->lossChart()->drawnPoints(2) == 2; }, 10000));

    std::unique_ptr<store::RunReader> reader = areas->store()->openReader().valueOr(nullptr);
    QVERIFY(reader);
    QCOMPARE(reader->run(id)->initFrom, QFileInfo(model).absoluteFilePath());
    // Rank 0's validation losses: the steps that took one (the others are NaN).
    const store::MetricSeries series = reader->series(id, store::Metric::EvalLoss, 0);
    QList<int> evalSteps;
    double coreLoss = NAN;
    for (qsizetype i = 0; i < series.size(); ++i)
        if (!std::isnan(series.values[i])) {
            evalSteps << series.steps[i];
            coreLoss = series.values[i];
        }
    QCOMPARE(evalSteps, (QList<int>{2, 4}));

    // Checkpoints > Export for Hugging Face, of the last step.
    window->areaTabs()->setCurrentWidget(areas->checkpointsArea());
    CheckpointsController* c = areas->checkpoints();
    c->showRun(id);
    CheckpointsModel* checkpointRows = areas->checkpointsModel();
    QCOMPARE(checkpointRows->rowCount(), 2);
    const int last = checkpointRows->entry(0).step == kSteps ? 0 : 1;
    QCOMPARE(checkpointRows->entry(last).step, kSteps);
    CheckpointsView* view = areas->checkpointsView();
    view->selectRow(last);
    QVERIFY(view->exportHfButton()->isEnabled());
    QSignalSpy finished(c, &CheckpointsController::jobFinished);
    const QString exported = tmp_.filePath(s("qwen3-export"));
    QVERIFY(c->exportTo(last, exported, app::CheckpointJob::ExportHf));
    QVERIFY(finished.wait(60000));
    QCOMPARE(c->job()->result().error, QString());
    QVERIFY2(view->messageLabel()->text().contains(exported), qPrintable(view->messageLabel()->text()));
    // A second export into the same folder is refused: it holds files now.
    QVERIFY(c->exportTo(last, exported, app::CheckpointJob::ExportHf));
    QVERIFY(finished.wait(60000));
    QVERIFY2(c->job()->result().error.contains(s("exists and is not empty")), qPrintable(c->job()->result().error));

    const QString out = sb::test::hfJourney({s("val-loss"), exported, tmp_.filePath(s("val")), QString::number(kSeq),
                                QString::number(kEvalBatches * kMicroBatch * kWorld)});
    QVERIFY(!out.isNull());
    const double hfLoss = out.trimmed().toDouble();
    const double diff = std::abs(hfLoss - coreLoss) / coreLoss;
    qInfo("validation loss at step %d: core %.9g, transformers on the workbench's export %.9g, relative difference %.2e", kSteps, coreLoss,
          hfLoss, diff);
    QVERIFY2(diff < kTolerance, qPrintable(QString::number(diff)));
}

QTEST_MAIN(TestHfJourney)
#include "tst_gui_hf_journey.moc"
