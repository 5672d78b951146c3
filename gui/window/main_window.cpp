#include "main_window.hpp"

#include "file_controller.hpp"
#include "language_manager.hpp"
#include "plan_docks.hpp"
#include "recent_files.hpp"
#include "run_areas.hpp"
#include "run_notifier.hpp"
#include "run_controller.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "text/format.hpp"
#include "text/problem_location.hpp"
#include "models/memory_model.hpp"
#include "models/plan_tree_model.hpp"
#include "models/problems_model.hpp"
#include "settings/setting.hpp"
#include "views/file_banner.hpp"
#include "views/launch_bar.hpp"
#include "views/launch_panel.hpp"
#include "views/memory_view.hpp"
#include "views/mesh_panel.hpp"
#include "views/model_panel.hpp"
#include "views/named_widget.hpp"
#include "views/plan_tree_view.hpp"
#include "views/problems_panel.hpp"
#include "views/training_panel.hpp"
#include "views/wheel_guard.hpp"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace sb::gui {

using app::Setting;

namespace {
const Setting<QByteArray> kGeometry{QStringLiteral("window/geometry")};
const Setting<QByteArray> kState{QStringLiteral("window/state")};
const Setting<QByteArray> kSplitter{QStringLiteral("window/splitter")};
} // namespace

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent)
    : Retranslated<QMainWindow>(parent), languages_(languages), document_(new PlanDocument(this)),
      memory_(new MemoryModel(document_, this)), treeModel_(new PlanTreeModel(document_, this)),
      problemsModel_(new ProblemsModel(document_, memory_, this)), recent_(new RecentFiles(this)),
      tree_(new PlanTreeView(treeModel_)), memoryView_(new MemoryView(memory_)), problems_(new ProblemsPanel(problemsModel_)),
      modelPanel_(new ModelPanel(document_)), meshPanel_(new MeshPanel(document_)), trainingPanel_(new TrainingPanel(document_)),
      splitter_(named<QSplitter>("centralSplitter", Qt::Horizontal)), tabs_(named<QTabWidget>("areaTabs")),
      peakStatus_(new QLabel), files_(new FileController(document_, memory_, memoryView_, recent_, this))
{
    WheelGuard::install(); // the wheel scrolls the panels; it changes only a focused field
    setObjectName(QStringLiteral("mainWindow"));
    splitter_->addWidget(tree_);
    splitter_->addWidget(memoryView_);
    // The memory side grows more: its charts need 300 px of plot beside their legend.
    splitter_->setStretchFactor(0, 2);
    splitter_->setStretchFactor(1, 3);
    tabs_->setDocumentMode(true);
    banner_ = new FileBanner(document_);
    auto* planTab = new QWidget;
    auto* planLayout = new QVBoxLayout(planTab);
    planLayout->setContentsMargins(0, 0, 0, 0);
    planLayout->addWidget(banner_);
    planLayout->addWidget(splitter_, 1);
    tabs_->addTab(planTab, QString());
    setCentralWidget(tabs_);
    areas_ = new RunAreas(document_, tabs_, this);
    buildDocks();
    actions_.create(this, document_->undoStack());
    actions_.view->addAction(setupDock_->toggleViewAction());
    actions_.view->addAction(problemsDock_->toggleViewAction());
    actions_.view->addAction(actions_.toolbar->toggleViewAction());
    // Launch, its target and "Keep running" at the end of the tabs' row: one click away on every tab.
    tabs_->setCornerWidget(areas_->launchBar(), Qt::TopRightCorner);
    // Only the tab shown sets the window's minimum size, with what it shows beside it (the Plan tab: its docks).
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::sizeByShownTab);
    sizeByShownTab();
    planDocks_ = new PlanDocks(tabs_, tabs_->indexOf(planTab),
                               {{setupDock_, setupDock_->toggleViewAction()},
                                {problemsDock_, problemsDock_->toggleViewAction()},
                                {actions_.toolbar, actions_.toolbar->toggleViewAction()}},
                               this);
    actions_.settings->addActions({areas_->notifier()->notifyAction(), areas_->notifier()->commandAction()});
    statusBar()->addPermanentWidget(peakStatus_);
    connectActions();
    retranslateUi();
    resize(1500, 920);
    splitter_->setSizes({600, 800});
    resizeDocks({setupDock_}, {370}, Qt::Horizontal);
    restoreWindowState();
}

MainWindow::~MainWindow()
{
    // Runs, probes and checkpoint jobs stop while every view still exists.
    delete areas_;
}

void MainWindow::setInteractive(bool interactive)
{
    interactive_ = interactive;
    files_->setInteractive(interactive);
    areas_->setInteractive(interactive);
}

void MainWindow::buildDocks()
{
    auto* setup = new QWidget;
    auto* layout = new QVBoxLayout(setup);
    modelGroup_ = new QGroupBox;
    meshGroup_ = new QGroupBox;
    trainingGroup_ = new QGroupBox;
    const std::pair<QGroupBox*, QWidget*> groups[] = {{modelGroup_, modelPanel_}, {meshGroup_, meshPanel_}, {trainingGroup_, trainingPanel_}};
    for (const auto& [box, panel] : groups) {
        auto* inner = new QVBoxLayout(box);
        inner->addWidget(panel);
        layout->addWidget(box);
    }
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(setup);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setupDock_ = named<QDockWidget>("setupDock", this);
    setupDock_->setWidget(scroll);
    setupDock_->setMinimumWidth(320);
    addDockWidget(Qt::LeftDockWidgetArea, setupDock_);
    problemsDock_ = named<QDockWidget>("problemsDock", this);
    problemsDock_->setWidget(problems_);
    addDockWidget(Qt::BottomDockWidgetArea, problemsDock_);
    resizeDocks({problemsDock_}, {170}, Qt::Vertical);
}

void MainWindow::connectActions()
{
    QUndoStack* stack = document_->undoStack();
    const MainActions& a = actions_;
    connect(a.newPlan, &QAction::triggered, files_, &FileController::newPlan);
    connect(a.open, &QAction::triggered, files_, &FileController::open);
    connect(a.save, &QAction::triggered, files_, &FileController::save);
    connect(a.saveAs, &QAction::triggered, files_, &FileController::saveAs);
    connect(a.importTree, &QAction::triggered, files_, &FileController::importModuleTree);
    connect(a.newFromHf, &QAction::triggered, files_, &FileController::newPlanFromHf);
    connect(files_, &FileController::weightsFolderOpened, this, [this](const QString& dir) { areas_->launchPanel()->initFromEdit()->setText(dir); });
    connect(a.exportScript, &QAction::triggered, files_, &FileController::exportScript);
    connect(a.exportPng, &QAction::triggered, files_, &FileController::exportChartsPng);
    connect(a.exportSvg, &QAction::triggered, files_, &FileController::exportChartsSvg);
    connect(a.exportCsv, &QAction::triggered, files_, &FileController::exportCsv);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.undo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(a.redo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(a.selectAll, &QAction::triggered, tree_, &QTreeView::selectAll);
    connect(a.makeBlocks, &QAction::triggered, this, [this] { editMakeBlocksUnits(*document_); });
    connect(tree_, &PlanTreeView::makeBlocksUnitsRequested, this, [this] { editMakeBlocksUnits(*document_); });
    connect(a.makeUnits, &QAction::triggered, this, [this] { editPolicy(*document_, tree_->selectedModules(), PolicyField::Unit, true); });
    connect(a.removeUnits, &QAction::triggered, this, [this] { editPolicy(*document_, tree_->selectedModules(), PolicyField::Unit, false); });
    connect(a.about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(a.recent, &QMenu::aboutToShow, this, [this] { recent_->fillMenu(actions_.recent); });
    connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (files_->maybeSave()) files_->openFile(path);
    });
    connect(a.languageGroup, &QActionGroup::triggered, this, [this](QAction* action) {
        languages_->setLanguage(action->data().toString());
    });
    connect(languages_, &LanguageManager::languageChanged, this, &MainWindow::updateLanguageChecks);
    updateLanguageChecks();

    connect(stack, &QUndoStack::indexChanged, this, [this] { actions_.updateUndoRedo(document_->undoStack()); });
    connect(document_, &PlanDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &PlanDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(memory_, &MemoryModel::estimateChanged, this, &MainWindow::updateStatus);
    connect(problems_, &ProblemsPanel::problemActivated, this, &MainWindow::showProblem);
    connect(banner_, &FileBanner::showFirst, this, [this] {
        if (!document_->keptValues().empty())
            showProblem(locateProblem(document_->problems().front().path, document_->plan(), document_->tree()));
    });
    connect(modelPanel_, &ModelPanel::importRequested, files_, &FileController::importModuleTree);
    connect(files_, &FileController::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(areas_, &RunAreas::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text, 5000); });
}

void MainWindow::retranslateUi()
{
    actions_.retranslate(document_->undoStack());
    setupDock_->setWindowTitle(tr("Setup"));
    problemsDock_->setWindowTitle(tr("Problems"));
    modelGroup_->setTitle(tr("Model"));
    meshGroup_->setTitle(tr("Mesh"));
    trainingGroup_->setTitle(tr("Training"));
    tabs_->setTabText(0, tr("Plan"));
    areas_->retranslate();
    treeModel_->retranslate();
    updateTitle();
    updateStatus();
}

void MainWindow::updateTitle()
{
    const QString path = document_->filePath();
    const QString name = path.isEmpty() ? tr("Untitled plan") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] — shardbench").arg(name));
    setWindowModified(document_->isModified());
}

void MainWindow::updateStatus()
{
    if (!memory_->hasEstimate()) {
        peakStatus_->setText(tr("No estimate: the plan has errors"));
        return;
    }
    const Estimate& e = memory_->estimate();
    peakStatus_->setText(tr("Peak %1 of %2 per rank").arg(formatBytes(e.peakBytes()), formatBytes(e.capacityBytes)));
}

void MainWindow::updateLanguageChecks()
{
    const QString chosen = languages_->language();
    for (QAction* a : actions_.languageGroup->actions()) a->setChecked(a->data().toString() == chosen);
}

void MainWindow::showProblem(const ProblemLocation& location)
{
    tabs_->setCurrentIndex(0); // the plan's problems are shown where it is designed
    switch (location.kind) {
    case ProblemLocation::Unit:
        if (location.module >= 0) {
            tree_->selectModule(location.module);
            tree_->setFocus(Qt::OtherFocusReason);
        }
        break;
    case ProblemLocation::Model:
        setupDock_->show();
        modelPanel_->focusField(location.field);
        break;
    case ProblemLocation::Mesh:
        setupDock_->show();
        meshPanel_->focusField(location.field);
        break;
    case ProblemLocation::Training:
        setupDock_->show();
        trainingPanel_->focusField(location.field);
        break;
    case ProblemLocation::Nowhere: break;
    }
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About shardbench"),
                       tr("<p><b>shardbench</b> %1</p><p>A workbench for FSDP2-style sharded training: design a "
                          "sharding plan, see every rank's memory, and export the plan as a PyTorch FSDP2 script.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::restoreWindowState()
{
    const QByteArray geometry = kGeometry.value();
    if (!geometry.isEmpty()) restoreGeometry(geometry);
    const QByteArray state = kState.value();
    if (!state.isEmpty()) restoreState(state);
    const QByteArray split = kSplitter.value();
    if (!split.isEmpty()) splitter_->restoreState(split);
    planDocks_->restore();
    areas_->restoreLayout();
    fitToScreen();
    fittedSize_ = size();
}

void MainWindow::fitToScreen()
{
    // A size saved on a larger monitor (or the first start's default) never
    // leaves part of the window beyond this screen's edge.
    const QScreen* s = screen();
    if (!s || isMaximized() || isFullScreen()) return;
    const QMargins frame = frameMargins();
    const QRect available = s->availableGeometry();
    const QSize room = available.size().shrunkBy(frame);
    const QSize fitted = size().boundedTo(room).expandedTo(minimumSizeHint().boundedTo(room));
    if (fitted != size()) resize(fitted);
    QRect placed(pos(), fitted.grownBy(frame)); // a window's pos() is its frame's
    if (!available.contains(placed)) {
        placed.moveRight(std::min(placed.right(), available.right()));
        placed.moveBottom(std::min(placed.bottom(), available.bottom()));
        placed.moveLeft(std::max(placed.left(), available.left()));
        placed.moveTop(std::max(placed.top(), available.top()));
        move(placed.topLeft());
    }
}

void MainWindow::sizeByShownTab()
{
    for (int i = 0; i < tabs_->count(); ++i) {
        const QSizePolicy::Policy p = i == tabs_->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        tabs_->widget(i)->setSizePolicy(p, p);
    }
}

QMargins MainWindow::frameMargins() const
{
    const QRect outer = frameGeometry();
    const QRect inner = geometry();
    const QMargins frame(inner.left() - outer.left(), inner.top() - outer.top(), outer.right() - inner.right(), outer.bottom() - inner.bottom());
    if (!frame.isNull()) return frame;
    // Not shown yet (or a platform without frames): room for a title bar, so the status bar stays on screen.
    return QMargins(0, style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, this), 0, 0);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Fitted again with the real frame, unless the size was set since (tests, a restored geometry kept as is).
    if (!fittedSize_.isEmpty() && size() == fittedSize_) fitToScreen();
    fittedSize_ = QSize();
}

void MainWindow::saveWindowState()
{
    kGeometry.setValue(saveGeometry());
    kState.setValue(saveState());
    kSplitter.setValue(splitter_->saveState());
    planDocks_->save();
    areas_->saveLayout();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (interactive_ && areas_->runs()->supervisesRun() &&
        QMessageBox::question(this, tr("A run is in progress"),
                              tr("Closing the workbench stops every rank of the running training. Stop it and quit?")) !=
            QMessageBox::Yes) {
        event->ignore();
        return;
    }
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    // Stopped, not killed with the window: the store records the run as cancelled.
    areas_->runs()->stopAndWait(10000);
    saveWindowState();
    event->accept();
}

} // namespace sb::gui
