#include "checkpoints_controller.hpp"

#include <QComboBox>

#include "checkpoints/checkpoint_catalog.hpp"
#include "history/store_access.hpp"
#include "models/checkpoints_model.hpp"
#include "text/run_text.hpp"
#include "run/restore_plan.hpp"
#include "settings/setting.hpp"
#include "views/checkpoints_view.hpp"
#include "views/restore_dialog.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>

namespace sb::gui {

using app::CheckpointEntry;
using app::CheckpointJob;
using app::HostCatalog;
using app::RestoreSource;
using app::Setting;
using app::StoreAccess;
using app::listRunCheckpoints;
using app::readRestoreSource;

namespace {
const Setting<QString> kExportDirectory{QStringLiteral("checkpoints/exportDirectory")};

QString runLabel(const store::RunRow& r)
{
    return r.name.isEmpty() ? CheckpointsController::tr("run %1").arg(r.id) : CheckpointsController::tr("run %1 (%2)").arg(r.id).arg(r.name);
}
} // namespace

CheckpointsController::CheckpointsController(StoreAccess* store, HostCatalog* hosts, CheckpointsModel* model,
                                             CheckpointsView* view, QWidget* window, QObject* parent)
    : QObject(parent), store_(store), hosts_(hosts), model_(model), view_(view), window_(window)
{
    connect(store_, &StoreAccess::runsChanged, this, &CheckpointsController::reloadRuns);
    connect(view_, &CheckpointsView::runChosen, this, &CheckpointsController::showRun);
    connect(view_, &CheckpointsView::verifyRequested, this, &CheckpointsController::verify);
    connect(view_, &CheckpointsView::exportRequested, this, &CheckpointsController::exportAsk);
    connect(view_, &CheckpointsView::exportHfRequested, this, &CheckpointsController::exportHfAsk);
    connect(view_, &CheckpointsView::restoreRequested, this, &CheckpointsController::restore);
    connect(view_, &CheckpointsView::cancelRequested, &job_, &CheckpointJob::cancel);
    connect(&job_, &CheckpointJob::progressChanged, view_, &CheckpointsView::setProgress);
    connect(&job_, &CheckpointJob::finished, this, &CheckpointsController::onJobFinished);
    connect(view_, &CheckpointsView::retranslated, this, [this] {
        if (message_) view_->setMessage(message_(), messageIsError_);
        if (view_->runBox()->count() > 0) reloadRuns(); // their dates, as the language writes them
    });
}

void CheckpointsController::showMessage(std::function<QString()> text, bool error)
{
    message_ = std::move(text);
    messageIsError_ = error;
    view_->setMessage(message_ ? message_() : QString(), error);
}

void CheckpointsController::reloadRuns()
{
    const Result<std::unique_ptr<store::RunReader>> opened = store_->openReader();
    store::RunReader* reader = opened ? opened.value().get() : nullptr;
    QList<QPair<qint64, QString>> runs;
    if (reader)
        for (const store::RunRow& r : reader->listRuns())
            runs << qMakePair(r.id, tr("%1 — %2, %3").arg(runLabel(r), runStatusText(r.status, r.isAbandoned(), r.isDetached()), timeText(r.createdAt)));
    view_->setRuns(runs);
    if (view_->currentRun() >= 0) showRun(view_->currentRun());
    else model_->setCheckpoints(-1, {});
}

void CheckpointsController::showRun(qint64 runId)
{
    if (view_->currentRun() != runId) {
        view_->showRun(runId); // comes back here through runChosen
        if (view_->currentRun() == runId) return;
    }
    const Result<std::unique_ptr<store::RunReader>> opened = store_->openReader();
    store::RunReader* reader = opened ? opened.value().get() : nullptr;
    std::optional<store::RunRow> run = reader ? reader->run(runId) : std::nullopt;
    if (!run) {
        model_->setCheckpoints(-1, {});
        return;
    }
    const QList<CheckpointEntry> entries = listRunCheckpoints(*reader, *run);
    model_->setCheckpoints(runId, entries);
    const int count = static_cast<int>(entries.size());
    if (!job_.isRunning())
        showMessage([count] {
            return count == 0 ? tr("This run has no checkpoints (set a checkpoint folder in the plan's training settings).")
                              : tr("%n checkpoint(s).", nullptr, count);
        });
}

void CheckpointsController::verify(int row)
{
    if (row < 0 || row >= model_->rowCount() || job_.isRunning()) return;
    const CheckpointEntry& e = model_->entry(row);
    const int step = e.step;
    if (job_.start(CheckpointJob::Verify, e.path)) {
        view_->setBusy(true);
        showMessage([step] { return tr("Verifying step %1…").arg(step); });
    }
}

bool CheckpointsController::exportTo(int row, const QString& path, CheckpointJob::Kind kind)
{
    if (row < 0 || row >= model_->rowCount() || job_.isRunning() || path.isEmpty() || kind == CheckpointJob::Verify) return false;
    const CheckpointEntry& e = model_->entry(row);
    if (!job_.start(kind, e.path, path)) return false;
    const int step = e.step;
    view_->setBusy(true);
    showMessage([step, path] { return tr("Exporting step %1 to %2…").arg(step).arg(path); });
    return true;
}

void CheckpointsController::exportAsk(int row)
{
    if (!interactive_ || row < 0) return;
    const CheckpointEntry& e = model_->entry(row);
    const QString dir = kExportDirectory.value(QDir::homePath());
    const QString suggested = QDir(dir).filePath(QStringLiteral("run-%1-step-%2.safetensors").arg(model_->runId()).arg(e.step));
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export the checkpoint as .safetensors"), suggested,
                                                      tr("safetensors (*.safetensors)"));
    if (path.isEmpty()) return;
    kExportDirectory.setValue(QFileInfo(path).absolutePath());
    exportTo(row, path);
}

void CheckpointsController::exportHfAsk(int row)
{
    if (!interactive_ || row < 0) return;
    const CheckpointEntry& e = model_->entry(row);
    const QString dir = kExportDirectory.value(QDir::homePath());
    const QString suggested = QDir(dir).filePath(QStringLiteral("run-%1-step-%2-hf").arg(model_->runId()).arg(e.step));
    // A new folder's name (the export refuses one that holds files).
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export for Hugging Face into a new folder"), suggested);
    if (path.isEmpty()) return;
    kExportDirectory.setValue(QFileInfo(path).absolutePath());
    exportTo(row, path, CheckpointJob::ExportHf);
}

void CheckpointsController::onJobFinished(const CheckpointJob::Result& r)
{
    view_->setBusy(false);
    // The checkpoint library's own sentences (r.error) are English.
    if (r.cancelled) {
        view_->setProgress(0);
        const bool verify = r.kind == CheckpointJob::Verify;
        showMessage([verify] { return verify ? tr("Verification cancelled.") : tr("Export cancelled; nothing was written."); });
    } else if (r.kind == CheckpointJob::Verify) {
        model_->setVerified(r.checkpoint, r.error);
        const QString error = r.error;
        showMessage([error] {
            return error.isEmpty() ? tr("Verified: every file and every shard matches its SHA-256.") : tr("The checkpoint is damaged: %1").arg(error);
        }, !r.error.isEmpty());
    } else if (r.kind == CheckpointJob::ExportHf) {
        const QString error = r.error, output = r.output;
        showMessage([error, output] {
            return error.isEmpty() ? tr("Exported to %1 for Hugging Face (AutoModelForCausalLM.from_pretrained reads it).").arg(output)
                                   : tr("The export failed: %1").arg(error);
        }, !r.error.isEmpty());
    } else {
        const QString error = r.error, output = r.output;
        const qint64 size = QFileInfo(r.output).size();
        showMessage([error, output, size] {
            return error.isEmpty() ? tr("Exported to %1 (%2).").arg(output, QLocale().formattedDataSize(size)) : tr("The export failed: %1").arg(error);
        }, !r.error.isEmpty());
    }
    Q_EMIT jobFinished(r);
}

RestoreDialog* CheckpointsController::makeRestoreDialog(int row)
{
    if (row < 0 || row >= model_->rowCount() || !model_->entry(row).restorable()) return nullptr;
    const CheckpointEntry& e = model_->entry(row);
    const Result<std::unique_ptr<store::RunReader>> opened = store_->openReader();
    store::RunReader* reader = opened ? opened.value().get() : nullptr;
    const std::optional<store::RunRow> run = reader ? reader->run(model_->runId()) : std::nullopt;
    RestoreSource source = readRestoreSource(e.path, run ? run->planJson : QString());
    if (source.worldSize <= 0) source.worldSize = e.worldSize; // a DCP checkpoint's, from its report
    launch::RunConfig runAs;
    if (run) app::runAsBefore(runAs, *run);
    auto* dialog = new RestoreDialog(hosts_, source, e.path, model_->runId(), run ? runLabel(*run) : QString(), runAs, window_);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { Q_EMIT restoreRequested(dialog->request()); });
    return dialog;
}

void CheckpointsController::restore(int row)
{
    RestoreDialog* dialog = makeRestoreDialog(row);
    if (!dialog) return;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

} // namespace sb::gui
