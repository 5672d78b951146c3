// The Cluster area's actions: adding, editing and removing hosts through the
// host dialog, testing them in parallel for what the next launch's engine
// needs, and asking the user about unknown host keys (for tests, launches and
// probes alike) with the host key dialog.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QWidget;

namespace sb::launch {
struct HostKeyInfo;
}

namespace sb::app {
class HostCatalog;
class HostProbeRunner;
struct HostProbeOptions;
struct LaunchRequest;
} // namespace sb::app

namespace sb::gui {

class ClusterView;
class GuiHostKeyPolicy;
class HostKeyDialog;
class HostsModel;

class ClusterController : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs.
    ClusterController(app::HostCatalog* catalog, HostsModel* model, ClusterView* view, GuiHostKeyPolicy* policy, QWidget* window,
                      QObject* parent = nullptr);
    ~ClusterController() override;

    app::HostProbeRunner* probes() const { return probes_.get(); }
    // The dialog asking about a host key right now, if any.
    HostKeyDialog* openHostKeyDialog() const;
    void test(const QStringList& hosts); // "" is this machine
    // What the next launch runs (the Run area's engine and the open plan): a
    // test checks what it needs on each host. Unset: shardbench-core.
    void setNextLaunch(std::function<app::LaunchRequest()> next);
    // Says in the view what a test checks; again whenever the engine or the plan's device changes.
    void showEngine();

Q_SIGNALS:
    void hostKeyDialogShown(sb::gui::HostKeyDialog* dialog);

private:
    void add();
    void edit(const QString& host);
    void askNext();
    // The options of a test: the remote core and folder, and the engine of the next launch.
    app::HostProbeOptions probeOptions() const;
    // The view's message, rebuilt when the language changes.
    void showMessage(std::function<QString()> text);

    app::HostCatalog* catalog_;
    HostsModel* model_;
    ClusterView* view_;
    GuiHostKeyPolicy* policy_;
    QWidget* window_;
    std::unique_ptr<app::HostProbeRunner> probes_;
    QPointer<HostKeyDialog> dialog_;
    struct Question;
    QList<std::shared_ptr<Question>> questions_;
    std::function<QString()> message_;
    std::function<app::LaunchRequest()> nextLaunch_;
};

} // namespace sb::gui
