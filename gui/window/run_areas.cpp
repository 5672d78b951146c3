#include "run_areas.hpp"

#include "views/engine_chooser.hpp"

#include "chart_export.hpp"
#include "checkpoints_controller.hpp"
#include "cluster_controller.hpp"
#include "run_controller.hpp"
#include "run_notifier.hpp"
#include "runs_controller.hpp"

#include "document/plan_document.hpp"
#include "history/store_access.hpp"
#include "jobs/work_pool.hpp"
#include "hosts/host_catalog.hpp"
#include "models/checkpoints_model.hpp"
#include "models/hosts_model.hpp"
#include "models/live_run_model.hpp"
#include "models/preflight_model.hpp"
#include "text/preflight_text.hpp"
#include "text/run_text.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "session/gui_host_key_policy.hpp"
#include "session/run_session.hpp"
#include "settings/setting.hpp"
#include "views/checkpoints_view.hpp"
#include "views/cluster_view.hpp"
#include "views/compare_view.hpp"
#include "views/compared_memory_chart.hpp"
#include "views/going_runs_bar.hpp"
#include "views/run_page.hpp"
#include "views/launch_bar.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/log_panes.hpp"
#include "views/rank_memory_chart.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "views/target_chooser.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QItemSelectionModel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QSplitter>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::gui {

using app::HostCatalog;
using app::LaunchRequest;
using app::Setting;
using app::StoreAccess;

namespace {
const Setting<QString> kChartDirectory{QStringLiteral("files/chartDirectory")};
const Setting<QByteArray> kRunSplitter{QStringLiteral("window/runSplitter")};

QString notRestoredText(qint64 parent, const QString& from)
{
    return RunAreas::tr("Run %1 was not restored from %2.").arg(parent).arg(from);
}
} // namespace

RunAreas::RunAreas(PlanDocument* document, QTabWidget* tabs, QWidget* window)
    : QObject(window), document_(document), tabs_(tabs), window_(window), store_(new StoreAccess(this)),
      hosts_(new HostCatalog(this)), hostKeys_(new GuiHostKeyPolicy(this)), hostsModel_(new HostsModel(hosts_, this)),
      clusterView_(new ClusterView(hostsModel_)), cluster_(new ClusterController(hosts_, hostsModel_, clusterView_, hostKeys_, window, this)),
      runController_(new RunController(store_, hosts_, hostKeys_, this)), notifier_(new RunNotifier(window, this)),
      runsModel_(new RunsModel(this)), compareView_(new CompareView), runsView_(new RunsView(runsModel_, compareView_)),
      runsController_(new RunsController(store_, runsModel_, runsView_, this)), checkpointsModel_(new CheckpointsModel(this)),
      checkpointsView_(new CheckpointsView(checkpointsModel_))
{
    preflightModel_ = new PreflightModel(runController_->preflight(), this);
    connect(runController_->alerts(), &launch::RunAlerts::alert, notifier_, &RunNotifier::deliver);
    connect(notifier_, &RunNotifier::statusMessage, this, &RunAreas::statusMessage);
    launchPanel_ = new LaunchPanel(hosts_, preflightModel_);
    // The Cluster area tests the hosts for what the next launch runs: the engine chosen here, the open plan's device.
    cluster_->setNextLaunch([this] { return planRequest(); });
    connect(launchPanel_->engineChooser(), &EngineChooser::changed, cluster_, &ClusterController::showEngine);
    connect(document_, &PlanDocument::meshChanged, cluster_, &ClusterController::showEngine);
    liveView_ = new LiveRunView;
    launchBar_ = new LaunchBar;
    buildRunArea();
    checkpoints_ = new CheckpointsController(store_, hosts_, checkpointsModel_, checkpointsView_, window, this);

    tabs_->addTab(clusterView_, QString());
    tabs_->addTab(runSplitter_, QString());
    tabs_->addTab(runsView_, QString());
    tabs_->addTab(checkpointsView_, QString());
    connect(tabs_, &QTabWidget::currentChanged, this, &RunAreas::areaShown);

    connectRun();
    connectAttach();
    connectLaunchBar();
    for (ChartViewBase* c : std::initializer_list<ChartViewBase*>{liveView_->lossChart(), liveView_->rateChart(), liveView_->timeChart(),
                                                                    liveView_->memoryChart(), compareView_->lossChart(),
                                                                    compareView_->rateChart(), compareView_->memoryChart(), runsView_->runPage()->runView()->lossChart(),
                                                                    runsView_->runPage()->runView()->rateChart(),
                                                                    runsView_->runPage()->runView()->timeChart(),
                                                                    runsView_->runPage()->runView()->memoryChart()})
        connectChart(c);
    connect(runsView_->runPage(), &RunPage::checkpointsRequested, runsView_, &RunsView::checkpointsRequested);
    connect(runsView_, &RunsView::checkpointsRequested, this, [this](qint64 run) {
        tabs_->setCurrentWidget(checkpointsView_);
        checkpoints_->showRun(run);
    });
    connect(checkpoints_, &CheckpointsController::restoreRequested, this, &RunAreas::launchRestore);
    retranslate();
}

RunAreas::~RunAreas()
{
    // A connection thread may be waiting for an answer: refuse it first, then
    // stop what runs (probes, a run's ranks, a verification) before the models go.
    hostKeys_->shutDown();
    delete cluster_;
    delete runController_;
    delete checkpoints_;
    delete runsController_;
}

void RunAreas::buildRunArea()
{
    // The launch settings in a column with the height they need, the run's
    // charts beside them: the height of a laptop's screen goes to the charts.
    // The column scrolls only when a long host list or the Slurm fields overflow it.
    runSplitter_ = new QSplitter(Qt::Horizontal);
    runSplitter_->setObjectName(QStringLiteral("runArea"));
    auto* launchScroll = new QScrollArea;
    launchScroll->setObjectName(QStringLiteral("launchScroll"));
    launchScroll->setWidget(launchPanel_);
    launchScroll->setWidgetResizable(true);
    launchScroll->setFrameShape(QFrame::NoFrame);
    launchScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    launchScroll->setMinimumWidth(launchPanel_->minimumSizeHint().width() + launchScroll->verticalScrollBar()->sizeHint().width());
    runSplitter_->addWidget(launchScroll);
    runSplitter_->addWidget(liveView_);
    runSplitter_->setChildrenCollapsible(false);
    runSplitter_->setStretchFactor(0, 0);
    runSplitter_->setStretchFactor(1, 1);
}

void RunAreas::saveLayout() const { kRunSplitter.setValue(runSplitter_->saveState()); }

void RunAreas::restoreLayout()
{
    if (const QByteArray state = kRunSplitter.value(); !state.isEmpty()) runSplitter_->restoreState(state);
}

QWidget* RunAreas::clusterArea() const { return clusterView_; }
QWidget* RunAreas::runArea() const { return runSplitter_; }
QWidget* RunAreas::runsArea() const { return runsView_; }
QWidget* RunAreas::checkpointsArea() const { return checkpointsView_; }

void RunAreas::setInteractive(bool interactive)
{
    interactive_ = interactive;
    checkpoints_->setInteractive(interactive);
    runsController_->setInteractive(interactive);
    notifier_->setInteractive(interactive);
}

LaunchRequest RunAreas::planRequest() const
{
    LaunchRequest r;
    r.plan = document_->plan();
    r.config.name = launchPanel_->nameEdit()->text().trimmed();
    if (!document_->filePath().isEmpty()) r.planDir = QFileInfo(document_->filePath()).absolutePath();
    r.config.target = launchPanel_->targetChooser()->target();
    r.config.maxRestarts = launchPanel_->restartsBox()->value();
    r.config.initFrom = launchPanel_->initFromEdit()->text().trimmed();
    const EngineChooser* engine = launchPanel_->engineChooser();
    r.config.engine = engine->engine();
    r.config.python = engine->python();
    r.config.scriptArgs = engine->scriptArgs();
    r.config.script = engine->script(); // made absolute with the other paths that start here (app::prepareRun)
    r.detach = launchPanel_->detachBox()->isChecked();
    return r;
}

void RunAreas::connectRun()
{
    RunController* rc = runController_;
    connect(launchPanel_, &LaunchPanel::checkRequested, this, [this] {
        setRestoring({});
        showMessage({}, false);
        runController_->check(planRequest());
    });
    connect(launchPanel_, &LaunchPanel::launchRequested, this, &RunAreas::launchPlan);
    connect(launchPanel_, &LaunchPanel::stopRequested, rc, [this] {
        runController_->stop();
        if (runController_->state() == RunController::State::Running) launchPanel_->setState(LaunchPanel::State::Stopping);
    });
    connect(rc->preflight(), &app::Preflight::progressChanged, launchPanel_, &LaunchPanel::setProgress);
    connect(rc, &RunController::stateChanged, this, [this](RunController::State s) {
        switch (s) {
        case RunController::State::Idle: launchPanel_->setState(LaunchPanel::State::Idle); break;
        case RunController::State::Checking: launchPanel_->setState(LaunchPanel::State::Checking); break;
        case RunController::State::Launching: launchPanel_->setState(LaunchPanel::State::Launching); break;
        case RunController::State::Running: launchPanel_->setState(LaunchPanel::State::Running); break;
        }
        if (s != RunController::State::Idle) return;
        // Nothing restores now: Launch starts the open plan (restoring_ stays for a refusal's message).
        showSubject({});
        if (runController_->preflight()->passed() && !runController_->session() && !runController_->attached())
            showMessage([] { return tr("Every check passed."); }, false);
    });
    connect(rc, &RunController::launchRefused, this, [this] {
        // Busy and Following refuse a new launch at once; any other refusal ends the one under way.
        const RunController::Refusal why = runController_->refusal();
        const bool atOnce = why == RunController::Refusal::Busy || why == RunController::Refusal::Following;
        const std::optional<Restore> restore = atOnce ? std::nullopt : restoring_;
        showMessage([this, restore] {
            QStringList lines;
            if (restore) lines << notRestoredText(restore->parent, restore->from);
            lines << runController_->lastError();
            if (runController_->refusal() == RunController::Refusal::ChecksFailed) lines << preflightModel_->failures();
            return lines.join(u'\n');
        }, true);
    });
    connect(rc, &RunController::memoryOverrideRequested, this, [this] {
        if (!interactive_) return;
        // Refusing is the default: Enter or Escape launches nothing.
        const QString peak = preflightSummaryText(runController_->preflight()->items().value(app::Preflight::MemoryFits));
        QMessageBox box(QMessageBox::Warning, tr("Launch despite the memory estimate?"),
                        tr("%1\n\nThe ranks would probably run out of memory. Launch anyway?").arg(peak), QMessageBox::NoButton, window_);
        QPushButton* launch = box.addButton(tr("Launch anyway"), QMessageBox::AcceptRole);
        QPushButton* refuse = box.addButton(tr("Do not launch"), QMessageBox::RejectRole);
        box.setDefaultButton(refuse);
        box.setEscapeButton(refuse);
        refuse->setFocus();
        box.exec();
        if (box.clickedButton() == launch) runController_->launchDespiteMemoryEstimate();
    });
    connect(rc, &RunController::sessionStarted, this, &RunAreas::showSession);
    connect(rc, &RunController::sessionFinished, this, [this](RunSession* s) {
        const qint64 id = s->runId();
        const store::RunStatus status = s->status();
        showMessage([id, status] { return tr("Run %1 %2.").arg(id).arg(runStatusText(status)); }, status == store::RunStatus::Failed);
        Q_EMIT statusMessage(tr("Run %1 finished: %2").arg(id).arg(runStatusText(status)));
    });
}

void RunAreas::launchPlan()
{
    setRestoring({});
    showMessage({}, false);
    // Refused only while another run goes (the button is off then); launchRefused says why.
    runController_->launch(planRequest());
}

void RunAreas::connectLaunchBar()
{
    // The bar starts what the Run area or the Checkpoints area would, and shows where its checks and run go on.
    connect(launchBar_, &LaunchBar::launchRequested, this, [this] {
        const bool restore = launchBar_->start() == LaunchBar::Start::Restore;
        if (restore) {
            checkpointsView_->restoreButton()->click(); // the Checkpoints area's Restore: its dialog, then launchRestore()
            return;
        }
        tabs_->setCurrentWidget(runSplitter_);
        launchPlan();
    });
    connect(launchBar_, &LaunchBar::targetRequested, this, [this] {
        tabs_->setCurrentWidget(runSplitter_);
        launchPanel_->targetChooser()->setFocus(Qt::OtherFocusReason);
    });
    QCheckBox* detach = launchPanel_->detachBox();
    launchBar_->keepRunningBox()->setChecked(detach->isChecked());
    connect(detach, &QCheckBox::toggled, launchBar_->keepRunningBox(), &QCheckBox::setChecked);
    connect(launchBar_->keepRunningBox(), &QCheckBox::toggled, detach, &QCheckBox::setChecked);
    connect(detach, &QCheckBox::toggled, this, &RunAreas::updateLaunchBar);
    connect(launchPanel_->targetChooser(), &TargetChooser::changed, this, &RunAreas::updateLaunchBar);
    connect(runController_, &RunController::stateChanged, this, &RunAreas::updateLaunchBar);
    connect(tabs_, &QTabWidget::currentChanged, this, &RunAreas::updateLaunchBar);
    connect(checkpointsView_->table()->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunAreas::updateLaunchBar);
    connect(checkpointsModel_, &QAbstractItemModel::modelReset, this, &RunAreas::updateLaunchBar);
    connect(checkpointsModel_, &QAbstractItemModel::dataChanged, this, &RunAreas::updateLaunchBar);
    updateLaunchBar();
}

void RunAreas::updateLaunchBar()
{
    launchBar_->setTarget(launchPanel_->targetChooser()->target());
    launchBar_->setBusy(runController_->state() != RunController::State::Idle);
    // On the Checkpoints area with a checkpoint to restore chosen, Launch restores it.
    const int row = tabs_->currentWidget() == checkpointsView_ ? checkpointsView_->selectedRow() : -1;
    if (row >= 0 && checkpointsModel_->entry(row).restorable())
        launchBar_->setStart(LaunchBar::Start::Restore, checkpointsModel_->runId(), checkpointsModel_->entry(row).step);
    else
        launchBar_->setStart(launchPanel_->detachBox()->isChecked() ? LaunchBar::Start::Detached : LaunchBar::Start::Run);
}

void RunAreas::showSession(RunSession* session)
{
    launchPanel_->setFollowing(false);
    liveView_->setRun(session->live(), session->logs(), session->launch().worldSize, session->runId(), session->launch().config.name);
    liveView_->setStatus(session->status(), {});
    connect(session, &RunSession::statusChanged, liveView_, &LiveRunView::setStatus);
    // Set again from the run itself: a restore launched despite its memory estimate comes after its refusal.
    const launch::RunConfig& config = session->launch().config;
    std::optional<Restore> restore;
    if (config.parentRun >= 0 && !config.resumeFrom.isEmpty()) restore = Restore{config.parentRun, config.resumeFrom};
    setRestoring(restore);
    const qint64 id = session->runId();
    const QString summary = session->launch().planSummary; // the launcher's words
    showMessage([id, summary] { return tr("Run %1 started: %2").arg(id).arg(summary); }, false);
    tabs_->setCurrentWidget(runSplitter_);
}

void RunAreas::connectAttach()
{
    RunController* rc = runController_;
    connect(rc, &RunController::attachStarted, this, &RunAreas::showAttached);
    connect(rc, &RunController::attachFinished, this, &RunAreas::attachFinished);
    connect(launchPanel_, &LaunchPanel::detachRequested, rc, &RunController::detach);
    connect(runsView_, &RunsView::attachRequested, this, &RunAreas::attachTo);
    GoingRunsBar* going = launchPanel_->goingRunsBar();
    connect(going, &GoingRunsBar::attachRequested, this, &RunAreas::attachTo);
    connect(going, &GoingRunsBar::showRunsRequested, this, [this] { tabs_->setCurrentWidget(runsView_); });
    // Once anything is launched or followed, the notice of the start is old news.
    connect(rc, &RunController::stateChanged, going, [going](RunController::State s) {
        if (s != RunController::State::Idle) going->setRuns({});
    });
    offerGoingRuns();
}

void RunAreas::attachTo(qint64 run)
{
    tabs_->setCurrentWidget(runSplitter_);
    // A restore being checked keeps its own (the attach is refused at once); a refusal to attach is no restore's.
    // A restore already running keeps its subject until it ends.
    const RunController::State state = runController_->state();
    if (state != RunController::State::Checking && state != RunController::State::Launching) restoring_.reset();
    showMessage({}, false);
    runController_->attach(run);
}

void RunAreas::offerGoingRuns()
{
    auto* watcher = new QFutureWatcher<QList<store::RunRow>>(this);
    connect(watcher, &QFutureWatcher<QList<store::RunRow>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        // Nothing to offer once the user has launched or attached meanwhile.
        if (runController_->state() == RunController::State::Idle) launchPanel_->goingRunsBar()->setRuns(watcher->result());
    });
    const QString path = store_->path();
    watcher->setFuture(QtConcurrent::run(app::workPool(), [path] { return goingDetachedRuns(path); }));
}

void RunAreas::showAttached(AttachedRun* run)
{
    const store::RunRow& row = run->row();
    showSubject({});
    liveView_->setRun(run->live(), run->logs(), row.worldSize, row.id, row.name);
    liveView_->setStatus(run->status(), run->codedReason());
    liveView_->setNote(tr("attaching to %1").arg(run->where()));
    connect(run, &AttachedRun::statusChanged, liveView_, &LiveRunView::setStatus);
    connect(run, &AttachedRun::connectionChanged, this, [this, run](bool connected, const QString& why) {
        liveView_->setNote(connected ? tr("attached: %1").arg(run->where()) : why);
    });
    connect(run, &AttachedRun::stopFailed, this, [this, run](const QString& error) {
        const qint64 id = run->runId();
        showMessage([id, error] { return tr("Run %1 was not stopped: %2").arg(id).arg(error); }, true);
        launchPanel_->setState(LaunchPanel::State::Running);
    });
    // Only rank 0's log is followed: another rank's comes when its pane is shown.
    connect(liveView_->logs(), &LogPanes::rankPaneShown, run, &AttachedRun::fetchRankLog);
    connect(run, &AttachedRun::rankLogFetched, this, [this](int rank, const QString& error) {
        if (!error.isEmpty()) Q_EMIT statusMessage(tr("The log of rank %1 cannot be fetched: %2").arg(rank).arg(error));
    });
    launchPanel_->setFollowing(true);
    runsModel_->setAttachedRun(row.id);
    const qint64 id = row.id;
    const QString where = run->where();
    showMessage([id, where] { return tr("Following run %1 on %2; it goes on when the workbench closes.").arg(id).arg(where); }, false);
    tabs_->setCurrentWidget(runSplitter_);
}

void RunAreas::attachFinished(AttachedRun* run)
{
    runsModel_->setAttachedRun(-1);
    const qint64 id = run->runId();
    const store::RunStatus status = run->status();
    const QString error = run->followError();
    liveView_->setNote({});
    if (!error.isEmpty()) {
        showMessage([id, error] { return tr("Run %1 cannot be followed: %2").arg(id).arg(error); }, true);
    } else if (store::isFinal(status)) {
        showMessage([id, status] { return tr("Run %1 %2.").arg(id).arg(runStatusText(status)); }, status == store::RunStatus::Failed);
        Q_EMIT statusMessage(tr("Run %1 finished: %2").arg(id).arg(runStatusText(status)));
    } else {
        showMessage([id] { return tr("Detached from run %1; it goes on (Runs: Attach follows it again).").arg(id); }, false);
    }
}

void RunAreas::launchRestore(const LaunchRequest& request)
{
    tabs_->setCurrentWidget(runSplitter_);
    const Restore restore{request.config.parentRun, request.config.resumeFrom};
    if (!runController_->launch(request)) {
        // Another run is going: refused, saying which restore and why; nothing is kept for a later Launch.
        showMessage([this, restore] {
            return QStringList{notRestoredText(restore.parent, restore.from), runController_->lastError()}.join(u'\n');
        }, true);
        return;
    }
    setRestoring(restore);
    showMessage({}, false);
}

void RunAreas::setRestoring(std::optional<Restore> restore)
{
    restoring_ = std::move(restore);
    if (!restoring_) {
        showSubject({});
        return;
    }
    const qint64 parent = restoring_->parent;
    const QString from = restoring_->from;
    showSubject([parent, from] { return tr("Restoring run %1 from %2").arg(parent).arg(from); });
}

void RunAreas::connectChart(ChartViewBase* chart)
{
    connect(chart, &ChartViewBase::exportRequested, this, [this, chart](ChartViewBase::ExportFormat f) { exportChart(chart, f); });
}

void RunAreas::exportChart(ChartViewBase* chart, ChartViewBase::ExportFormat format)
{
    if (!interactive_) return;
    const char* suffix = format == ChartViewBase::ExportFormat::Png ? "png" : format == ChartViewBase::ExportFormat::Svg ? "svg" : "csv";
    const QString filter = format == ChartViewBase::ExportFormat::Png   ? tr("PNG image (*.png)")
                           : format == ChartViewBase::ExportFormat::Svg ? tr("SVG drawing (*.svg)")
                                                                        : tr("CSV table (*.csv)");
    const QString suggested = QDir(kChartDirectory.value(QDir::homePath())).filePath(chart->exportName() + QLatin1Char('.') + QLatin1String(suffix));
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export the chart"), suggested, filter);
    if (path.isEmpty()) return;
    kChartDirectory.setValue(QFileInfo(path).absolutePath());
    const QString error = format == ChartViewBase::ExportFormat::Png   ? exportChartPng(*chart, path)
                          : format == ChartViewBase::ExportFormat::Svg ? exportChartSvg(*chart, path)
                                                                       : exportChartCsv(*chart, path);
    if (!error.isEmpty()) QMessageBox::warning(window_, tr("Export"), error);
    else Q_EMIT statusMessage(tr("Wrote %1").arg(path));
}

void RunAreas::areaShown(int index)
{
    QWidget* w = tabs_->widget(index);
    if (w == runsView_ && !runsLoaded_) {
        runsLoaded_ = true;
        runsController_->reload();
        runsController_->refreshDetached(runsModel_->attachedRun());
    } else if (w == checkpointsView_ && !checkpointsLoaded_) {
        checkpointsLoaded_ = true;
        checkpoints_->reloadRuns();
    }
}

void RunAreas::showMessage(std::function<QString()> text, bool error)
{
    message_ = std::move(text);
    messageIsError_ = error;
    launchPanel_->setMessage(message_ ? message_() : QString(), error);
}

void RunAreas::showSubject(std::function<QString()> text)
{
    subject_ = std::move(text);
    launchPanel_->setSubject(subject_ ? subject_() : QString());
}

void RunAreas::retranslate()
{
    if (message_) launchPanel_->setMessage(message_(), messageIsError_);
    if (subject_) launchPanel_->setSubject(subject_());
    tabs_->setTabText(tabs_->indexOf(clusterView_), tr("Cluster"));
    tabs_->setTabText(tabs_->indexOf(runSplitter_), tr("Run"));
    tabs_->setTabText(tabs_->indexOf(runsView_), tr("Runs"));
    tabs_->setTabText(tabs_->indexOf(checkpointsView_), tr("Checkpoints"));
    notifier_->retranslate();
}

} // namespace sb::gui
