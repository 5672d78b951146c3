// The workbench window, laid out by task. The Plan tab (designing): the plan
// tree with its policies (centre left), the memory of every rank (centre
// right), the model / mesh / training settings (left dock) and the problems
// (bottom dock). Then the Cluster, Run, Runs and Checkpoints tabs
// (RunAreas), which get the whole window: the docks and the toolbar of plan
// actions show with the Plan tab only. The end of the tabs' row holds Launch
// with its target and "Keep running", on every tab.
#pragma once

#include "views/retranslated.hpp"

#include "main_actions.hpp"

#include <QMainWindow>

class QDockWidget;
class QGroupBox;
class QLabel;
class QSplitter;
class QTabWidget;

namespace sb::gui {

class FileBanner;

class FileController;
class LanguageManager;
class MemoryModel;
class MemoryView;
class MeshPanel;
class ModelPanel;
class PlanDocks;
class PlanDocument;
class PlanTreeModel;
class PlanTreeView;
class ProblemsModel;
class ProblemsPanel;
class RecentFiles;
class RunAreas;
class TrainingPanel;
struct ProblemLocation;

class MainWindow : public Retranslated<QMainWindow> {
    Q_OBJECT
public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlanDocument* document() const { return document_; }
    MemoryModel* memoryModel() const { return memory_; }
    MemoryView* memoryView() const { return memoryView_; }
    PlanTreeModel* planTreeModel() const { return treeModel_; }
    PlanTreeView* planTree() const { return tree_; }
    ProblemsPanel* problemsPanel() const { return problems_; }
    ModelPanel* modelPanel() const { return modelPanel_; }
    MeshPanel* meshPanel() const { return meshPanel_; }
    TrainingPanel* trainingPanel() const { return trainingPanel_; }
    QDockWidget* setupDock() const { return setupDock_; }
    QDockWidget* problemsDock() const { return problemsDock_; }
    // The docks and toolbar shown with the Plan tab only, and the user's choice there.
    PlanDocks* planDocks() const { return planDocks_; }
    FileController* files() const { return files_; }
    RecentFiles* recentFiles() const { return recent_; }
    LanguageManager* languages() const { return languages_; }
    const MainActions& actions() const { return actions_; }
    QTabWidget* areaTabs() const { return tabs_; }
    QSplitter* planArea() const { return splitter_; }
    FileBanner* fileBanner() const { return banner_; }
    RunAreas* areas() const { return areas_; }
    // Without interaction nothing asks or shows a message box (tests, screenshots).
    void setInteractive(bool interactive);

    // Shows where a problem is: selects its tree row or focuses its field.
    void showProblem(const ProblemLocation& location);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildDocks();
    void connectActions();
    void retranslateUi() override;
    void updateTitle();
    void updateStatus();
    void updateLanguageChecks();
    void restoreWindowState();
    // The window with its frame inside the screen's available area (its status bar on screen).
    void fitToScreen();
    // The window's minimum follows the tab shown: a hidden tab asks for no room.
    void sizeByShownTab();
    // The frame around the window; before it is shown, a title bar's worth.
    QMargins frameMargins() const;
    void saveWindowState();
    void showAbout();

    LanguageManager* languages_;
    PlanDocument* document_;
    MemoryModel* memory_;
    PlanTreeModel* treeModel_;
    ProblemsModel* problemsModel_;
    RecentFiles* recent_;
    PlanTreeView* tree_;
    MemoryView* memoryView_;
    ProblemsPanel* problems_;
    ModelPanel* modelPanel_;
    MeshPanel* meshPanel_;
    TrainingPanel* trainingPanel_;
    QSplitter* splitter_;
    FileBanner* banner_;
    QTabWidget* tabs_;
    RunAreas* areas_ = nullptr;
    bool interactive_ = true;
    QDockWidget* setupDock_ = nullptr;
    QDockWidget* problemsDock_ = nullptr;
    PlanDocks* planDocks_ = nullptr;
    QSize fittedSize_; // the size fitToScreen() chose before the window was first shown
    QGroupBox* modelGroup_ = nullptr;
    QGroupBox* meshGroup_ = nullptr;
    QGroupBox* trainingGroup_ = nullptr;
    QLabel* peakStatus_;
    FileController* files_;
    MainActions actions_;
};

} // namespace sb::gui
