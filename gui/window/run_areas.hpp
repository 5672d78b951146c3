// The workbench's second half: the Cluster, Run, Runs and Checkpoints areas,
// their models and the controllers between them and the launcher, the run
// store and the checkpoints. The main window shows them as tabs next to the
// plan; this object builds and connects them.
#pragma once

#include "views/chart_view_base.hpp"

#include <QObject>

#include <functional>
#include <optional>

class QSplitter;
class QTabWidget;
class QWidget;

namespace sb::app {
class HostCatalog;
class StoreAccess;
struct LaunchRequest;
} // namespace sb::app

namespace sb::gui {

class CheckpointsController;
class CheckpointsModel;
class CheckpointsView;
class ClusterController;
class ClusterView;
class CompareView;
class GuiHostKeyPolicy;
class HostsModel;
class LaunchBar;
class LaunchPanel;
class LiveRunView;
class PlanDocument;
class PreflightModel;
class RunController;
class RunNotifier;
class AttachedRun;
class RunSession;
class RunsController;
class RunsModel;
class RunsView;

class RunAreas : public QObject {
    Q_OBJECT
public:
    RunAreas(PlanDocument* document, QTabWidget* tabs, QWidget* window);
    ~RunAreas() override;

    // Tabs (in order after the Plan tab).
    QWidget* clusterArea() const;
    QWidget* runArea() const;
    QWidget* runsArea() const;
    QWidget* checkpointsArea() const;

    app::StoreAccess* store() const { return store_; }
    app::HostCatalog* hosts() const { return hosts_; }
    GuiHostKeyPolicy* hostKeys() const { return hostKeys_; }
    HostsModel* hostsModel() const { return hostsModel_; }
    ClusterView* clusterView() const { return clusterView_; }
    ClusterController* cluster() const { return cluster_; }
    LaunchPanel* launchPanel() const { return launchPanel_; }
    // Launch with its target and "Keep running", for a bar every tab shows.
    LaunchBar* launchBar() const { return launchBar_; }
    LiveRunView* liveView() const { return liveView_; }
    RunController* runs() const { return runController_; }
    RunNotifier* notifier() const { return notifier_; }
    RunsModel* runsModel() const { return runsModel_; }
    RunsView* runsView() const { return runsView_; }
    CompareView* compareView() const { return compareView_; }
    RunsController* history() const { return runsController_; }
    CheckpointsModel* checkpointsModel() const { return checkpointsModel_; }
    CheckpointsView* checkpointsView() const { return checkpointsView_; }
    CheckpointsController* checkpoints() const { return checkpoints_; }

    // Without interaction no file dialog opens (tests, screenshots).
    void setInteractive(bool interactive);
    // The launch request for the open plan with the panel's choices.
    app::LaunchRequest planRequest() const;
    // Launches a restore; while another run is going it is refused, saying why.
    void launchRestore(const app::LaunchRequest& request);
    void retranslate();
    // The Run area's splitter (launch settings | the run), kept with the window's state.
    void saveLayout() const;
    void restoreLayout();

Q_SIGNALS:
    void statusMessage(const QString& text);

private:
    void buildRunArea();
    void connectRun();
    // Launches the open plan with the Run area's choices (its Launch button and the bar's).
    void launchPlan();
    void connectLaunchBar();
    // What the bar's Launch starts now: the open plan (detached or not), or the checkpoint chosen.
    void updateLaunchBar();
    void connectChart(ChartViewBase* chart);
    void exportChart(ChartViewBase* chart, ChartViewBase::ExportFormat format);
    void showSession(RunSession* session);
    void connectAttach();
    // Follows detached run `run` in the Run area (from Runs or the going-runs bar).
    void attachTo(qint64 run);
    // The detached runs that went on while the workbench was closed, read once at start.
    void offerGoingRuns();
    void showAttached(AttachedRun* run);
    void attachFinished(AttachedRun* run);
    void areaShown(int index);
    // The launch panel's message and subject, rebuilt when the language changes.
    void showMessage(std::function<QString()> text, bool error);
    void showSubject(std::function<QString()> text);
    // A checkpoint restored as a new run: its parent run and checkpoint folder.
    struct Restore {
        qint64 parent = -1;
        QString from;
    };
    // The restore the Run area checks or runs from now on (none: the open plan), shown as its subject.
    void setRestoring(std::optional<Restore> restore);

    PlanDocument* document_;
    QTabWidget* tabs_;
    QWidget* window_;
    app::StoreAccess* store_;
    app::HostCatalog* hosts_;
    GuiHostKeyPolicy* hostKeys_;
    HostsModel* hostsModel_;
    ClusterView* clusterView_;
    ClusterController* cluster_;
    PreflightModel* preflightModel_;
    LaunchPanel* launchPanel_;
    LaunchBar* launchBar_;
    LiveRunView* liveView_;
    QSplitter* runSplitter_;
    RunController* runController_;
    RunNotifier* notifier_;
    RunsModel* runsModel_;
    CompareView* compareView_;
    RunsView* runsView_;
    RunsController* runsController_;
    CheckpointsModel* checkpointsModel_;
    CheckpointsView* checkpointsView_;
    CheckpointsController* checkpoints_;
    std::function<QString()> message_;
    std::function<QString()> subject_;
    // The restore launched last; the subject shows it only while the Run area is not idle.
    std::optional<Restore> restoring_;
    bool messageIsError_ = false;
    bool interactive_ = true;
    bool runsLoaded_ = false;
    bool checkpointsLoaded_ = false;
};

} // namespace sb::gui
