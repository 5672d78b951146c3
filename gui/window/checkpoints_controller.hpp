// The Checkpoints area's actions: listing the checkpoints of the chosen run,
// verifying and exporting them off the GUI thread, and turning one into a
// restore request (the Run area launches it).
#pragma once

#include "checkpoints/checkpoint_job.hpp"
#include "run/launch_request.hpp"

#include <QObject>

#include <functional>

class QWidget;

namespace sb::app {
class HostCatalog;
class StoreAccess;
} // namespace sb::app

namespace sb::gui {

class CheckpointsModel;
class CheckpointsView;
class RestoreDialog;

class CheckpointsController : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs.
    CheckpointsController(app::StoreAccess* store, app::HostCatalog* hosts, CheckpointsModel* model, CheckpointsView* view,
                          QWidget* window, QObject* parent = nullptr);

    app::CheckpointJob* job() { return &job_; }
    // Without interaction, export asks for no file (tests use exportTo).
    void setInteractive(bool interactive) { interactive_ = interactive; }

    void reloadRuns();
    void showRun(qint64 runId);
    void verify(int row);
    // Export: one .safetensors file at `path`; ExportHf: a Hugging Face folder there.
    bool exportTo(int row, const QString& path, app::CheckpointJob::Kind kind = app::CheckpointJob::Export);
    // The dialog for `row` (not shown); null when the checkpoint cannot be restored.
    RestoreDialog* makeRestoreDialog(int row);

Q_SIGNALS:
    void restoreRequested(const sb::app::LaunchRequest& request);
    void jobFinished(const sb::app::CheckpointJob::Result& result);

private:
    void exportAsk(int row);
    void exportHfAsk(int row);
    void restore(int row);
    void onJobFinished(const app::CheckpointJob::Result& r);
    // The view's message, rebuilt when the language changes.
    void showMessage(std::function<QString()> text, bool error = false);

    app::StoreAccess* store_;
    app::HostCatalog* hosts_;
    CheckpointsModel* model_;
    CheckpointsView* view_;
    QWidget* window_;
    app::CheckpointJob job_;
    std::function<QString()> message_;
    bool messageIsError_ = false;
    bool interactive_ = true;
};

} // namespace sb::gui
