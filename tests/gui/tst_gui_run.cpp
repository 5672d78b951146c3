// Runs from the workbench, end to end with the real shardbench-core: the tiny
// plan launched on this machine from the Run area shows its steps as they
// come, and its end is said to the alert command;
// Stop marks a run cancelled; two runs compare in the Runs area; a
// checkpoint verifies, exports and restores into a resumed run at another
// world size whose first step follows its parent's last; a restore pressed
// while another run is followed is refused, never kept for a later Launch;
// the launches through Slurm and from exported weights: tst_gui_run_targets.cpp.
#include "tst_gui_run.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "history/store_access.hpp"
#include "settings/run_settings.hpp"
#include "jobs/work_pool.hpp"
#include "models/checkpoints_model.hpp"
#include "models/live_run_model.hpp"
#include "models/plan_diff_model.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "text/run_text.hpp"
#include "views/checkpoints_view.hpp"
#include "views/compare_view.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/log_panes.hpp"
#include "views/rank_memory_chart.hpp"
#include "views/restore_dialog.hpp"
#include "views/run_page.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "views/target_chooser.hpp"
#include "views/number_field.hpp"
#include "views/training_panel.hpp"
#include "window/chart_export.hpp"
#include "window/checkpoints_controller.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"
#include "window/run_notifier.hpp"
#include "window/runs_controller.hpp"

#include "checkpoint/safetensors.hpp"
#include "models/run_log_model.hpp"
#include "store/run_reader.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QUndoStack>
#include <QLineEdit>
#include <QPushButton>
#include <QProcess>
#include <QRadioButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThreadPool>
#include <QTest>

#include <algorithm>

#include <unistd.h>

using namespace sb;
using namespace sb::gui;
using sb::app::CheckpointEntry;
using sb::app::LaunchRequest;
using sb::app::workPool;

void TestRun::initTestCase()
{
    test::isolateSettings();
    QVERIFY(tmp_.isValid());
    test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
    w_ = std::make_unique<test::Workbench>();
    w_->window->setInteractive(false);
    const QString plan = tmp_.filePath(QStringLiteral("p.json"));
    QCOMPARE(test::writeTinyPlan(plan, 20), QString());
    QVERIFY(w_->window->files()->openFile(plan));
}

void TestRun::cleanupTestCase() { w_.reset(); }

std::unique_ptr<store::RunReader> TestRun::reader() const
{
    auto r = areas()->store()->openReader();
    if (!r || !r.value()) qWarning("no reader: %s", r ? "no store yet" : r.error().c_str());
    return std::move(r).valueOr(nullptr);
}

void TestRun::typeInto(QWidget* w, const QString& text)
{
    w->setFocus();
    if (auto* box = qobject_cast<QSpinBox*>(w)) box->selectAll();
    if (auto* edit = qobject_cast<QLineEdit*>(w)) edit->selectAll();
    QTest::keyClicks(w, text);
    QTest::keyClick(w, Qt::Key_Return);
}

void TestRun::launchTheTinyPlanFromTheGui()
{
    // The plan's checkpoints, set in the training settings (relative to the plan file).
    TrainingPanel* training = w_->window->trainingPanel();
    typeInto(training->checkpointDirEdit(), QStringLiteral("ckpt"));
    typeInto(training->checkpointIntervalBox(), QStringLiteral("10"));
    PlanDocument* doc = w_->window->document();
    QCOMPARE(doc->plan().training.checkpoint.dir, std::string("ckpt"));
    QCOMPARE(doc->plan().training.checkpoint.interval, 10);
    checkpointRoot_ = tmp_.filePath(QStringLiteral("ckpt"));

    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    typeInto(areas()->launchPanel()->nameEdit(), QStringLiteral("first"));
    // The alert command: run on the run's end with the alert in its environment.
    const QString alerts = tmp_.filePath(QStringLiteral("alerts.txt"));
    const QString hook = tmp_.filePath(QStringLiteral("alert hook.sh")); // a space: arguments are split as quoted
    QFile script(hook);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("echo \"$SHARDBENCH_ALERT $SHARDBENCH_RUN_ID $SHARDBENCH_MESSAGE\" >> \"$1\"\n");
    script.close();
    app::RunSettings::alertCommand.setValue(QStringLiteral("/bin/sh \"%1\" %2").arg(hook, alerts));
    const auto noCommand = qScopeGuard([] { app::RunSettings::alertCommand.setValue(QString()); });
    QSignalSpy delivered(areas()->notifier(), &RunNotifier::delivered);
    RunController* rc = areas()->runs();
    QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
    QCOMPARE(rc->state(), RunController::State::Checking);
    QVERIFY2(QTest::qWaitFor([&] { return rc->session() != nullptr; }, 60000),
             qPrintable(areas()->launchPanel()->messageLabel()->text()));
    RunSession* s = rc->session();
    LiveRunView* live = areas()->liveView();
    // Step points arrive on the charts while the run goes on.
    QVERIFY(QTest::qWaitFor([&] { return live->lossChart()->drawnPoints(1) >= 1 && live->rateChart()->drawnPoints(0) >= 1; }, 30000));
    QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 60000));
    QCOMPARE(s->status(), store::RunStatus::Completed);
    QVERIFY(QTest::qWaitFor([&] { return live->lossChart()->drawnPoints(0) == 20; }, 5000));
    QCOMPARE(s->live()->lastStep(), 20);
    QCOMPARE(s->live()->firstStep(), 1);
    QCOMPARE(live->timeChart()->seriesCount(), 5);
    QVERIFY(live->timeChart()->drawnPoints(0) > 0);
    QVERIFY(live->statusText().contains(QStringLiteral("20")));
    for (const LiveRunModel::RankMemory& r : s->live()->ranks()) {
        QVERIFY(r.peak > 0);
        QVERIFY(r.predicted > 0);
    }
    // From the core's print to the screen: every step well within 0.5 s.
    const QList<double>& latencies = live->screenLatenciesMs();
    QVERIFY(!latencies.isEmpty());
    const double worst = *std::max_element(latencies.begin(), latencies.end());
    qInfo("print-to-screen: %lld samples, worst %.1f ms", static_cast<long long>(latencies.size()), worst);
    QVERIFY2(worst < 500, qPrintable(QString::number(worst)));
    // Per-rank logs, filtered.
    s->logs()->flush();
    QVERIFY(live->logs()->shownLines(RunLogModel::kLauncher) > 0);
    live->logs()->filterEdit()->setText(QStringLiteral("rank 1 started"));
    QCOMPARE(live->logs()->shownLines(RunLogModel::kLauncher), 1);
    live->logs()->filterEdit()->clear();

    // The store has the run as the CLI would show it.
    firstRun_ = s->runId();
    auto r = reader();
    QVERIFY(r);
    const auto row = r->run(firstRun_);
    QVERIFY(row);
    QCOMPARE(row->status, QStringLiteral("completed"));
    QCOMPARE(row->name, QStringLiteral("first"));
    QCOMPARE(row->stepsDone, 20);
    QCOMPARE(row->worldSize, 2);

    // One alert: the run completed, said in the status bar and to the command.
    QVERIFY(QTest::qWaitFor([&] { return !delivered.isEmpty(); }, 5000));
    QCOMPARE(delivered.size(), 1);
    const launch::RunAlert alert = delivered.first().value(0).value<launch::RunAlert>();
    QCOMPARE(alert.kind, launch::RunAlert::Finished);
    QCOMPARE(alert.runId, firstRun_);
    QCOMPARE(delivered.first().value(1).toString(), QStringLiteral("Run %1 (first) completed at step 20.").arg(firstRun_));
    QVERIFY(delivered.first().value(2).toBool());
    QFile said(alerts);
    QVERIFY(QTest::qWaitFor([&] { return said.size() > 0; }, 10000));
    QVERIFY(said.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(said.readAll()).trimmed(),
             QStringLiteral("finished %1 run %1 (first) completed at step 20").arg(firstRun_));

    // Any chart as PNG, SVG and CSV.
    QCOMPARE(exportChartPng(*live->lossChart(), tmp_.filePath(QStringLiteral("loss.png"))), QString());
    QVERIFY(!QImage(tmp_.filePath(QStringLiteral("loss.png"))).isNull());
    QCOMPARE(exportChartSvg(*live->memoryChart(), tmp_.filePath(QStringLiteral("memory.svg"))), QString());
    QFile svg(tmp_.filePath(QStringLiteral("memory.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
    QCOMPARE(exportChartCsv(*live->lossChart(), tmp_.filePath(QStringLiteral("loss.csv"))), QString());
    QFile csv(tmp_.filePath(QStringLiteral("loss.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 21);
    QVERIFY(lines[0].startsWith("step,loss,loss_smoothed"));
}

void TestRun::stopMarksTheRunCancelled()
{
    PlanDocument* doc = w_->window->document();
    // A long run, with one policy changed (for the comparison that follows).
    typeInto(w_->window->trainingPanel()->stepsBox(), QStringLiteral("100000"));
    QCOMPARE(doc->plan().training.steps, 100000);
    QVERIFY(editPolicy(*doc, {doc->tree().findModule("layers.0")}, PolicyField::Checkpointing, true));
    typeInto(areas()->launchPanel()->nameEdit(), QStringLiteral("long"));
    RunController* rc = areas()->runs();
    const RunSession* before = rc->session();
    QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return rc->session() != before; }, 60000));
    RunSession* s = rc->session();
    QVERIFY(QTest::qWaitFor([&] { return s->live()->lastStep() >= 3; }, 30000));
    QVERIFY(areas()->launchPanel()->stopButton()->isEnabled());
    const QString uid = s->launch().uid;
    QTest::mouseClick(areas()->launchPanel()->stopButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 20000));
    QCOMPARE(s->status(), store::RunStatus::Cancelled);
    QVERIFY(areas()->liveView()->statusText().contains(QStringLiteral("cancelled")));
    QVERIFY(areas()->launchPanel()->launchButton()->isEnabled());
    cancelledRun_ = s->runId();
    auto r = reader();
    const auto row = r->run(cancelledRun_);
    QVERIFY(row);
    QCOMPARE(row->status, QStringLiteral("cancelled"));
    QVERIFY(row->stepsDone >= 3);
    // No rank is left behind.
    QVERIFY(QTest::qWaitFor([&] {
        for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (cmd.open(QIODevice::ReadOnly) && cmd.readAll().contains(uid.toUtf8())) return false;
        }
        return true;
    }, 10000));
    // Back to the short plan for what follows.
    doc->undoStack()->undo(); // the policy
    typeInto(w_->window->trainingPanel()->stepsBox(), QStringLiteral("20"));
}

void TestRun::compareTwoRuns()
{
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    RunsView* view = areas()->runsView();
    QVERIFY(QTest::qWaitFor([&] { return areas()->runsModel()->rowCount() >= 2; }, 5000));
    QVERIFY(QTest::qWaitFor([&] { return areas()->runsModel()->hasDetails(firstRun_); }, 5000));
    // The history is sortable and filterable.
    view->filterEdit()->setText(QStringLiteral("long"));
    QCOMPARE(view->proxy()->rowCount(), 1);
    view->filterEdit()->clear();
    QCOMPARE(view->proxy()->rowCount(), 2);
    view->table()->sortByColumn(RunsModel::IdColumn, Qt::AscendingOrder);
    QCOMPARE(view->proxy()->index(0, RunsModel::IdColumn).data(RunsModel::RunIdRole).toLongLong(), firstRun_);
    const int firstRow = areas()->runsModel()->rowOfRun(firstRun_);
    QVERIFY(areas()->runsModel()->index(firstRow, RunsModel::PlanColumn).data().toString().contains(QStringLiteral("transformer")));
    QVERIFY(!areas()->runsModel()->index(firstRow, RunsModel::RateColumn).data().toString().isEmpty());
    QVERIFY(!areas()->runsModel()->index(firstRow, RunsModel::PeakColumn).data().toString().isEmpty());

    // Select both: the comparison follows.
    view->selectRuns({firstRun_, cancelledRun_});
    CompareView* compare = areas()->compareView();
    QVERIFY(QTest::qWaitFor([&] { return compare->runs().size() == 2; }, 10000));
    // Per run: its raw line and its smoothed line.
    QCOMPARE(compare->lossChart()->seriesCount(), 4);
    compare->lossChart()->refreshNow();
    QCOMPARE(compare->lossChart()->drawnPoints(0), 20);
    QCOMPARE(compare->lossChart()->drawnPoints(1), 20);
    QVERIFY(compare->lossChart()->drawnPoints(2) >= 3);
    QCOMPARE(compare->rateChart()->seriesCount(), 4);
    // The plans differ in the steps and in one unit's activation checkpointing.
    bool steps = false, policy = false;
    for (const PlanDifference& d : compare->diffModel()->differences()) {
        if (d.section == PlanDifference::Training && d.item == QStringLiteral("steps")) {
            steps = true;
            QCOMPARE(d.values, (QStringList{QStringLiteral("20"), QStringLiteral("100,000")}));
        }
        if (d.section == PlanDifference::Policy && d.item == QStringLiteral("layers.0") &&
            d.detail == QStringLiteral("activation checkpointing"))
            policy = true;
    }
    QVERIFY(steps);
    QVERIFY(policy);
    // Aligned by wall time, x is seconds since each run's first step.
    compare->setAlign(CompareView::Align::ByTime);
    compare->lossChart()->refreshNow();
    QVERIFY(compare->lossChart()->xMin() >= 0);
    QVERIFY(compare->lossChart()->xMax() < 60);
    // By the wall clock: the later run starts where it started, after the first.
    compare->setAlign(CompareView::Align::ByClock);
    compare->lossChart()->refreshNow();
    QVERIFY(compare->lossChart()->showsClock());
    QCOMPARE(compare->lossChart()->clockOrigin(), compare->runs().front().clockOrigin);
    QVERIFY(compare->runs().back().byClock->x(0) > compare->runs().front().byClock->x(0));
    QVERIFY(!compare->lossChart()->xTickLabels().isEmpty());
    compare->setAlign(CompareView::Align::ByStep);
    QVERIFY(!compare->lossChart()->showsClock());
}

// The first run, ended, selected alone in the Runs area: its page draws it
// with the Run area's views (read back from the store), with every rank's
// log, its plan and its checkpoints; the log can take the whole page.
void TestRun::aPastRunIsAPageOfItsOwn()
{
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    RunsView* view = areas()->runsView();
    RunPage* page = view->runPage();
    view->selectRuns({firstRun_});
    QVERIFY(view->showsRunPage());
    QVERIFY(QTest::qWaitFor([&] { return page->runId() == firstRun_; }, 10000));
    LiveRunView* run = page->runView();
    run->lossChart()->refreshNow();
    QCOMPARE(run->lossChart()->drawnPoints(0), 20);
    QCOMPARE(run->timeChart()->seriesCount(), 5);
    QVERIFY(run->statusText().contains(QStringLiteral("step 20 of 20")));
    QVERIFY2(run->statusText().startsWith(runStatusText(store::RunStatus::Completed)), qPrintable(run->statusText()));
    // Memory per rank: each rank's measured peak beside the plan's estimate.
    const QList<LiveRunModel::RankMemory>& ranks = run->model()->ranks();
    QCOMPARE(ranks.size(), 2);
    for (const LiveRunModel::RankMemory& r : ranks) {
        QVERIFY(r.peak > 0);
        QVERIFY(r.predicted > 0);
    }
    // Every rank's log and the launcher's, searchable.
    LogPanes* logs = run->logs();
    for (int rank : {RunLogModel::kLauncher, 0, 1}) QVERIFY2(logs->shownLines(rank) > 0, qPrintable(QString::number(rank)));
    logs->filterEdit()->setText(QStringLiteral("step 20/20"));
    QCOMPARE(logs->shownLines(0), 1);
    QCOMPARE(logs->shownLines(1), 1);
    logs->filterEdit()->clear();
    QCOMPARE(page->tabs()->indexOf(logs), 1); // a tab of its own, beside the charts
    // In the Run area the log shares the view with the charts: enlarged, it
    // takes the charts' room; again, they come back.
    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    LiveRunView* live = areas()->liveView();
    QVERIFY(live->chartsArea()->isVisible());
    QTest::mouseClick(live->logs()->enlargeButton(), Qt::LeftButton);
    QVERIFY(!live->chartsArea()->isVisible());
    QTRY_VERIFY(live->logs()->height() > live->height() * 3 / 4);
    QTest::mouseClick(live->logs()->enlargeButton(), Qt::LeftButton);
    QVERIFY(live->chartsArea()->isVisible());
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    // Where and how it ran, its plan, its two kept checkpoints.
    QVERIFY2(page->detailsLabel()->text().contains(QStringLiteral("on this machine")), qPrintable(page->detailsLabel()->text()));
    QVERIFY(page->detailsLabel()->text().contains(QStringLiteral("world size 2")));
    QVERIFY(page->planModel()->rowCount() > 10);
    QCOMPARE(page->checkpointsModel()->rowCount(), 2);
    QCOMPARE(page->checkpointsModel()->entry(1).step, 20);
    QCOMPARE(page->tabs()->tabText(3), QStringLiteral("Checkpoints (2)"));
    QTest::mouseClick(page->openCheckpointsButton(), Qt::LeftButton);
    QCOMPARE(w_->window->areaTabs()->currentWidget(), areas()->checkpointsArea());
    QCOMPARE(areas()->checkpointsView()->currentRun(), firstRun_);
}

void TestRun::verifyAndExportACheckpoint()
{
    w_->window->areaTabs()->setCurrentWidget(areas()->checkpointsArea());
    CheckpointsController* c = areas()->checkpoints();
    c->showRun(firstRun_);
    CheckpointsModel* model = areas()->checkpointsModel();
    QCOMPARE(model->rowCount(), 2); // keep = 2: steps 10 and 20
    QCOMPARE(model->entry(0).step, 10);
    QCOMPARE(model->entry(1).step, 20);
    QCOMPARE(model->entry(1).worldSize, 2);
    QVERIFY(model->entry(1).bytes > 0);
    QCOMPARE(model->entry(1).status, CheckpointEntry::Complete);
    QVERIFY(model->entry(1).path.startsWith(checkpointRoot_));

    CheckpointsView* view = areas()->checkpointsView();
    view->selectRow(1);
    QVERIFY(view->verifyButton()->isEnabled());
    QSignalSpy verified(c, &CheckpointsController::jobFinished);
    QTest::mouseClick(view->verifyButton(), Qt::LeftButton);
    QVERIFY(verified.wait(20000));
    QCOMPARE(c->job()->result().checkpoint, model->entry(1).path);
    QCOMPARE(model->entry(1).status, CheckpointEntry::Verified);
    QCOMPARE(view->progressBar()->value(), 1000);

    const QString out = tmp_.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(c->exportTo(1, out));
    QVERIFY(verified.wait(20000));
    QCOMPARE(c->job()->result().error, QString());
    const Result<ckpt::SafetensorsFile> header = ckpt::readSafetensorsHeader(out.toStdString());
    QCOMPARE(header.error(), std::string());
    QVERIFY(header.value().entries.size() > 5);

    // A cancelled export leaves nothing behind. The tiny checkpoint exports in
    // a millisecond, so the job is held in the work pool's queue until the
    // cancel is clicked.
    const QString cancelled = tmp_.filePath(QStringLiteral("cancelled.safetensors"));
    QThreadPool* pool = workPool();
    QSemaphore hold;
    const int threads = pool->maxThreadCount();
    for (int i = 0; i < threads; ++i) pool->start([&hold] { hold.acquire(); });
    QVERIFY(QTest::qWaitFor([&] { return pool->activeThreadCount() == threads; }, 5000));
    QVERIFY(c->exportTo(1, cancelled));
    QVERIFY(view->cancelButton()->isEnabled());
    QTest::mouseClick(view->cancelButton(), Qt::LeftButton);
    hold.release(threads);
    QVERIFY(verified.wait(20000));
    QVERIFY(c->job()->result().cancelled);
    QVERIFY(!QFile::exists(cancelled));
    QVERIFY(view->restoreButton()->isEnabled());
}

void TestRun::restoreResumesAtAnotherWorldSize()
{
    CheckpointsController* c = areas()->checkpoints();
    CheckpointsModel* model = areas()->checkpointsModel();
    QCOMPARE(model->rowCount(), 2);
    const QString checkpoint = model->entry(1).path;
    std::unique_ptr<RestoreDialog> dialog(c->makeRestoreDialog(1));
    QVERIFY(dialog);
    dialog->show();
    QCOMPARE(dialog->worldSizeBox()->value(), 2);
    dialog->worldSizeBox()->setValue(3); // load-time resharding from 2 to 3 ranks
    dialog->stepsBox()->setValue(26);
    QVERIFY(dialog->isValid());
    QCOMPARE(dialog->request().plan.mesh.worldSize(), 3);
    RunController* rc = areas()->runs();
    const RunSession* before = rc->session();
    QTest::mouseClick(dialog->restoreButton(), Qt::LeftButton);
    QVERIFY2(QTest::qWaitFor([&] { return rc->session() != before; }, 60000), qPrintable(areas()->launchPanel()->messageLabel()->text()));
    QCOMPARE(w_->window->areaTabs()->currentWidget(), areas()->runArea());
    RunSession* s = rc->session();
    QLabel* subject = areas()->launchPanel()->subjectLabel();
    QVERIFY2(!subject->isHidden() && subject->text().startsWith(QStringLiteral("Restoring run %1 from ").arg(firstRun_)),
             qPrintable(subject->text()));
    QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 60000));
    QCOMPARE(s->status(), store::RunStatus::Completed);
    QTRY_VERIFY(subject->isHidden()); // Launch starts the open plan again
    QCOMPARE(s->live()->firstStep(), 21);
    QCOMPARE(s->live()->lastStep(), 26);

    auto r = reader();
    const auto child = r->run(s->runId());
    QVERIFY(child);
    QCOMPARE(child->parentRun, firstRun_);
    QCOMPARE(child->resumedFrom, checkpoint);
    QCOMPARE(child->worldSize, 3);
    const store::MetricSeries parent = r->series(firstRun_, store::Metric::Loss, 0);
    const store::MetricSeries resumed = r->series(s->runId(), store::Metric::Loss, 0);
    QVERIFY(!parent.steps.isEmpty() && !resumed.steps.isEmpty());
    QCOMPARE(resumed.steps.front(), parent.steps.back() + 1);
    // Its checkpoints went into a folder of its own under the same root
    // (DIR/<run uid>), listed under it alone; the parent's are all still there.
    const QString childRoot = QString::fromStdString(dialog->request().plan.training.checkpoint.dir);
    QCOMPARE(QDir(childRoot).absolutePath(), QDir(checkpointRoot_).absolutePath());
    const auto parentRow = r->run(firstRun_);
    QVERIFY(parentRow && !parentRow->uid.isEmpty() && !child->uid.isEmpty());
    c->showRun(s->runId());
    QCOMPARE(model->rowCount(), 1); // the last step, 26
    QCOMPARE(model->entry(0).step, 26);
    QCOMPARE(model->entry(0).runUid, child->uid);
    QVERIFY(model->entry(0).path.startsWith(QDir(checkpointRoot_).absoluteFilePath(child->uid) + QLatin1Char('/')));
    c->showRun(firstRun_);
    QCOMPARE(model->rowCount(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(model->entry(i).runUid, parentRow->uid);
        QVERIFY(model->entry(i).restorable()); // complete (or verified above), never rotated away by the child
    }
}

// Issue 39: a restore pressed while a detached run is followed said
// "Restoring run 1 from …", started nothing, and the Launch after the followed
// run ended started the open plan from step 1. It is refused at once, says
// why, and nothing of it is left to start later.
void TestRun::aRestoreWhileFollowingARunIsRefused()
{
    // A long detached run, followed in the Run area.
    typeInto(w_->window->trainingPanel()->stepsBox(), QStringLiteral("100000"));
    LaunchPanel* panel = areas()->launchPanel();
    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    typeInto(panel->nameEdit(), QStringLiteral("followed"));
    panel->detachBox()->setChecked(true);
    RunController* rc = areas()->runs();
    const RunSession* session = rc->session();
    QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
    QVERIFY2(QTest::qWaitFor([&] { return rc->attached() != nullptr; }, 60000), qPrintable(panel->messageLabel()->text()));
    AttachedRun* followed = rc->attached();
    const QString runDir = followed->row().runDir;
    const auto stopIt = qScopeGuard([&] { // a failed check must not leave it training
        QProcess stop;
        stop.start(test::binPath(QStringLiteral("shardbench-supervise")), {QStringLiteral("stop"), runDir, QStringLiteral("--kill")});
        stop.waitForFinished(60000);
    });
    panel->detachBox()->setChecked(false);
    typeInto(w_->window->trainingPanel()->stepsBox(), QStringLiteral("20"));
    QVERIFY(QTest::qWaitFor([&] { return followed->live()->lastStep() >= 2; }, 60000));
    QCOMPARE(rc->state(), RunController::State::Running);

    // Restore the first run's last checkpoint meanwhile.
    CheckpointsController* c = areas()->checkpoints();
    w_->window->areaTabs()->setCurrentWidget(areas()->checkpointsArea());
    c->showRun(firstRun_);
    QCOMPARE(areas()->checkpointsModel()->rowCount(), 2);
    std::unique_ptr<RestoreDialog> dialog(c->makeRestoreDialog(1));
    QVERIFY(dialog);
    dialog->show();
    QVERIFY(dialog->isValid());
    QTest::mouseClick(dialog->restoreButton(), Qt::LeftButton);
    // Refused in the Run area, saying why; the followed run goes on, followed.
    QCOMPARE(w_->window->areaTabs()->currentWidget(), areas()->runArea());
    const QString said = panel->messageLabel()->text();
    QVERIFY2(said.contains(QStringLiteral("was not restored")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("run %1 is being followed").arg(followed->runId()), Qt::CaseInsensitive), qPrintable(said));
    QLabel* subject = panel->subjectLabel();
    QVERIFY2(subject->isHidden(), qPrintable(subject->text())); // no "Restoring run …" while nothing restores
    QCOMPARE(rc->state(), RunController::State::Running);
    QCOMPARE(rc->attached(), followed);
    QCOMPARE(rc->session(), session);

    // The followed run ends: nothing starts on its own, and Launch is the open plan's again.
    QTest::mouseClick(panel->stopButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return followed->isFinished(); }, 60000));
    QCOMPARE(followed->status(), store::RunStatus::Cancelled);
    QTest::qWait(1000);
    QCOMPARE(rc->state(), RunController::State::Idle);
    QCOMPARE(rc->session(), session);
    QCOMPARE(rc->attached(), followed);
    QVERIFY(subject->isHidden());
    QVERIFY(panel->launchButton()->isEnabled());
    auto r = reader();
    QVERIFY(r);
    qint64 newest = -1;
    for (const store::RunRow& row : r->listRuns()) newest = std::max(newest, row.id);
    QCOMPARE(newest, followed->runId());

    // A restore whose checks fail says which restore it was and leaves no subject either.
    LaunchRequest invalid = dialog->request();
    invalid.plan.training.microBatch = 0;
    areas()->launchRestore(invalid);
    QVERIFY(!subject->isHidden()); // checking it
    QVERIFY(QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 30000));
    QCOMPARE(rc->refusal(), RunController::Refusal::ChecksFailed);
    const QString failed = panel->messageLabel()->text();
    QVERIFY2(failed.startsWith(QStringLiteral("Run %1 was not restored from %2.").arg(firstRun_).arg(invalid.config.resumeFrom)),
             qPrintable(failed));
    QVERIFY(subject->isHidden());
    QCOMPARE(rc->session(), session);
}

QTEST_MAIN(TestRun)
