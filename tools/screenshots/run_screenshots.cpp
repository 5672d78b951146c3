#include "run_screenshots.hpp"

#include "window/checkpoints_controller.hpp"
#include "window/cluster_controller.hpp"
#include "window/language_manager.hpp"
#include "window/main_window.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"
#include "window/runs_controller.hpp"
#include "screenshot_support.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "hosts/host_catalog.hpp"
#include "hosts/host_probe_runner.hpp"
#include "models/checkpoints_model.hpp"
#include "models/hosts_model.hpp"
#include "models/live_run_model.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "settings/run_settings.hpp"
#include "views/checkpoints_view.hpp"
#include "views/cluster_view.hpp"
#include "views/compare_view.hpp"
#include "views/run_page.hpp"
#include "views/host_key_dialog.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/restore_dialog.hpp"
#include "views/runs_view.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

namespace sb::gui {

using app::HostEntry;
using app::LaunchRequest;
using app::RunSettings;

namespace {

// Small enough to train in seconds on a laptop CPU, large enough for real curves.
Plan screenshotPlan(const QString& checkpoints)
{
    Plan plan = defaultPlan(tutorialTransformer(128, 64, 4, 4, 256, 32));
    plan.name = "tutorial-small";
    plan.mesh.procsPerNode = 2;
    plan.training.microBatch = 4;
    plan.training.seqLen = 32;
    plan.training.steps = 300;
    plan.training.optimizer.lr = 3e-3;
    plan.training.checkpoint.dir = checkpoints.toStdString();
    plan.training.checkpoint.interval = 100;
    return plan;
}

RunSession* launchAndWait(MainWindow& w, Shooter& shots, const QString& name, int stopAtStep = -1)
{
    RunAreas* areas = w.areas();
    RunController* rc = areas->runs();
    const RunSession* before = rc->session();
    areas->launchPanel()->nameEdit()->setText(name);
    if (!rc->launch(areas->planRequest())) { // another run goes: refused at once
        shots.fail(QStringLiteral("run \"%1\" was refused: %2").arg(name, rc->lastError()));
        return nullptr;
    }
    if (!waitUntil([&] { return rc->session() && rc->session() != before; }, 120000)) {
        shots.fail(QStringLiteral("run \"%1\" did not start: %2").arg(name, rc->lastError()));
        return nullptr;
    }
    RunSession* s = rc->session();
    if (stopAtStep > 0 && waitUntil([&] { return s->live()->lastStep() >= stopAtStep || s->isFinished(); }, 300000))
        rc->stop();
    if (!waitUntil([&] { return s->isFinished(); }, 600000)) {
        shots.fail(QStringLiteral("run \"%1\" did not finish").arg(name));
        return nullptr;
    }
    return s;
}

// A host key made for the picture (never this machine's own).
launch::HostKeyInfo sampleHostKey(const QString& dir)
{
    launch::HostKeyInfo info;
    info.host = QStringLiteral("gpu-node-1");
    info.address = QStringLiteral("10.0.0.11");
    info.port = 22;
    info.knownHostsFile = QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
    const QString key = dir + QStringLiteral("/sample_host_key");
    QProcess::execute(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                    QStringLiteral("-N"), QString(), QStringLiteral("-f"), key});
    const QString pub = key + QStringLiteral(".pub");
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"), QStringLiteral("-f"), pub});
    p.waitForFinished(10000);
    const QList<QByteArray> parts = p.readAllStandardOutput().split(' ');
    info.keyType = QStringLiteral("ssh-ed25519");
    info.fingerprint = QString::fromUtf8(parts.value(1));
    return info;
}

// A detached run followed in the Run area, then detached: Runs lists it as
// running on the cluster with Attach; attached again and stopped.
void shootDetachedRun(MainWindow& w, Shooter& shots, const QString& checkpoints)
{
    RunAreas* areas = w.areas();
    RunController* rc = areas->runs();
    Plan plan = screenshotPlan(checkpoints);
    plan.training.steps = 100000;
    w.document()->reset(plan);
    w.areaTabs()->setCurrentWidget(areas->runArea());
    areas->launchPanel()->nameEdit()->setText(QStringLiteral("overnight"));
    areas->launchPanel()->detachBox()->setChecked(true);
    areas->launchPanel()->launchButton()->click();
    if (!waitUntil([&] { return rc->attached() && rc->attached()->live()->lastStep() >= 150; }, 120000)) {
        shots.fail(QStringLiteral("the detached run did not start: %1").arg(rc->lastError()));
        return;
    }
    AttachedRun* run = rc->attached();
    const qint64 id = run->runId();
    settle(300);
    shots.shoot(&w, QStringLiteral("run-attached"));
    areas->launchPanel()->detachBox()->setChecked(false); // the later pictures launch as before
    rc->detach();
    waitUntil([&] { return run->isFinished(); }, 30000);
    w.areaTabs()->setCurrentWidget(areas->runsArea());
    areas->history()->reload();
    areas->runsView()->selectRuns({id});
    waitUntil([&] { return areas->runsView()->runPage()->runId() == id; }, 30000);
    settle(300);
    shots.shoot(&w, QStringLiteral("runs-detached"));
    if (rc->attach(id)) {
        rc->stop();
        waitUntil([&] { return rc->attached()->isFinished(); }, 60000);
    }
}

} // namespace

void runRunScreenshots(MainWindow& w, Shooter& shots)
{
    QTemporaryDir tmp;
    const QString saved[] = {RunSettings::storePath.value(), RunSettings::launchDir.value()};
    RunSettings::storePath.setValue(tmp.filePath(QStringLiteral("runs.sqlite")));
    RunSettings::launchDir.setValue(tmp.filePath(QStringLiteral("launches")));
    RunAreas* areas = w.areas();
    QTabWidget* tabs = w.areaTabs();
    PlanDocument* doc = w.document();

    // Run 1: the plan as it is, with checkpoints every 100 steps.
    doc->reset(screenshotPlan(tmp.filePath(QStringLiteral("ckpt"))));
    tabs->setCurrentWidget(areas->runArea());
    RunSession* first = launchAndWait(w, shots, QStringLiteral("baseline"));
    if (!first) return;
    shots.shoot(&w, QStringLiteral("run"));
    shots.shootAtScreenSizes(&w, QStringLiteral("run"));
    shots.shoot(areas->liveView(), QStringLiteral("live-charts"));
    const qint64 firstId = first->runId();

    // Run 2: activation checkpointing and no resharding on two blocks; stopped early.
    doc->reset(screenshotPlan(tmp.filePath(QStringLiteral("ckpt2"))));
    editPolicy(*doc, {doc->tree().findModule("layers.0"), doc->tree().findModule("layers.1")}, PolicyField::Checkpointing, true);
    editPolicy(*doc, {doc->tree().findModule("layers.3")}, PolicyField::Reshard, QStringLiteral("false"));
    RunSession* second = launchAndWait(w, shots, QStringLiteral("checkpointed blocks"), 180);
    if (!second) return;
    const qint64 secondId = second->runId();

    // Run 3: the baseline's last checkpoint restored on 3 ranks, trained on to step 400.
    tabs->setCurrentWidget(areas->checkpointsArea());
    CheckpointsController* checkpoints = areas->checkpoints();
    checkpoints->reloadRuns();
    checkpoints->showRun(firstId);
    CheckpointsModel* model = areas->checkpointsModel();
    const int last = model->rowCount() - 1;
    if (last < 0) {
        shots.fail(QStringLiteral("the baseline has no checkpoint"));
        return;
    }
    areas->checkpointsView()->selectRow(last);
    checkpoints->verify(last);
    waitUntil([&] { return !checkpoints->job()->isRunning(); }, 60000);
    settle(300);
    shots.shoot(&w, QStringLiteral("checkpoints"));
    std::unique_ptr<RestoreDialog> restore(checkpoints->makeRestoreDialog(last));
    if (restore) {
        restore->worldSizeBox()->setValue(3);
        restore->stepsBox()->setValue(400);
        restore->show();
        shots.shoot(restore.get(), QStringLiteral("restore-dialog"));
        const LaunchRequest request = restore->request();
        restore.reset();
        areas->launchRestore(request);
        RunController* rc = areas->runs();
        waitUntil([&] { return rc->state() == RunController::State::Idle && rc->session() && rc->session()->isFinished(); }, 600000);
    }

    // The history and the comparison of the first two runs.
    tabs->setCurrentWidget(areas->runsArea());
    areas->history()->reload();
    waitUntil([&] { return !areas->history()->history()->detailsPending(); }, 30000);
    areas->runsView()->selectRuns({firstId, secondId});
    waitUntil([&] { return areas->compareView()->runs().size() == 2; }, 30000);
    settle(300);
    shots.shoot(&w, QStringLiteral("runs"));
    shots.shootAtScreenSizes(&w, QStringLiteral("runs"));
    shots.shootTranslated(w, QStringLiteral("runs"));
    shots.shoot(areas->compareView(), QStringLiteral("compare"));
    // The baseline alone: its page, with its memory, logs and checkpoints.
    areas->runsView()->selectRuns({firstId});
    waitUntil([&] { return areas->runsView()->runPage()->runId() == firstId; }, 30000);
    settle(300);
    shots.shoot(&w, QStringLiteral("run-page"));
    shots.shootAtScreenSizes(&w, QStringLiteral("run-page"));
    shots.shootTranslated(w, QStringLiteral("run-page"));
    shootDetachedRun(w, shots, tmp.filePath(QStringLiteral("ckpt4")));

    // The Cluster area: this machine tested, and a host that is not there.
    tabs->setCurrentWidget(areas->clusterArea());
    HostEntry offline;
    offline.name = QStringLiteral("offline-node");
    offline.hostname = QStringLiteral("127.0.0.1");
    offline.port = 1;
    offline.gpus = 8;
    areas->hosts()->setManualHost(offline);
    areas->cluster()->test({QString(), offline.name});
    waitUntil([&] { return !areas->cluster()->probes()->isRunning(); }, 120000);
    settle(300);
    shots.shoot(&w, QStringLiteral("cluster"));
    areas->hosts()->removeHost(offline.name);

    HostKeyDialog dialog(sampleHostKey(tmp.path()), &w);
    dialog.show();
    shots.shoot(&dialog, QStringLiteral("host-key-dialog"));
    dialog.close();

    // The Run area in German and in Chinese, at both sizes.
    tabs->setCurrentWidget(areas->runArea());
    shots.shootTranslated(w, QStringLiteral("run"));

    RunSettings::storePath.setValue(saved[0]);
    RunSettings::launchDir.setValue(saved[1]);
}

} // namespace sb::gui
