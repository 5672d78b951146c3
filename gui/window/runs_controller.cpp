#include "runs_controller.hpp"

#include "history/store_access.hpp"
#include "launch/abandoned_runs.hpp"
#include "models/runs_model.hpp"
#include "views/compare_view.hpp"
#include "views/run_page.hpp"
#include "views/run_notes_dialog.hpp"
#include "views/runs_view.hpp"

#include <QMessageBox>

#include <algorithm>


namespace sb::gui {

using app::CompareLoader;
using app::HistoryLoader;
using app::StoreAccess;

RunsController::RunsController(StoreAccess* store, RunsModel* model, RunsView* view, QObject* parent)
    : QObject(parent), store_(store), model_(model), view_(view), pastRun_(new PastRun(view->runPage()))
{
    connect(store_, &StoreAccess::runsChanged, this, &RunsController::reload);
    connect(view_, &RunsView::refreshRequested, this, [this] {
        reload();
        refreshDetached(model_->attachedRun());
    });
    connect(&history_, &HistoryLoader::detailsReady, model_, &RunsModel::addDetails);
    connect(&history_, &HistoryLoader::detailsFinished, this, [this] {
        detailsMs_ = clock_.nsecsElapsed() / 1e6;
        Q_EMIT detailsLoaded();
    });
    connect(view_, &RunsView::compareRequested, this, [this](QList<qint64> runs) {
        // Oldest first: the first run is what the others are compared with.
        std::sort(runs.begin(), runs.end());
        compare_.load(store_->path(), runs);
    });
    connect(&compare_, &CompareLoader::loaded, this, [this] { view_->compareView()->setRuns(compare_.runs()); });
    connect(view_, &RunsView::runRequested, this, [this](qint64 run) { pastRun_->load(store_->path(), run); });
    connect(pastRun_, &PastRun::loaded, this, [this] { view_->runPage()->showRun(pastRun_); });
    connect(view_, &RunsView::annotateRequested, this, &RunsController::askAnnotate);
    connect(view_, &RunsView::deleteRequested, this, &RunsController::askDelete);
}

QString RunsController::writeAndReload(const std::function<void(store::SqliteRunStore&)>& write)
{
    const Result<std::shared_ptr<store::SqliteRunStore>> writer = store_->writer();
    if (!writer) return tr("The run store cannot be written: %1").arg(qtMessage(writer));
    write(*writer.value());
    if (const Status written = writer.value()->flush(); !written)
        return tr("The run store cannot be written: %1").arg(qtMessage(written));
    store_->notifyRunsChanged(); // this history and the Checkpoints area read the store again
    return {};
}

QString RunsController::annotateRun(qint64 runId, const QString& name, const QStringList& tags, const QString& notes)
{
    if (model_->rowOfRun(runId) < 0) return tr("There is no run %1 in the store.").arg(runId);
    store::RunUpdate u;
    u.runId = runId;
    u.name = name;
    u.tags = tags;
    u.notes = notes;
    return writeAndReload([&](store::SqliteRunStore& w) { w.updateRun(u); });
}

QString RunsController::deleteRuns(const QList<qint64>& runs)
{
    for (qint64 id : runs) {
        const int row = model_->rowOfRun(id);
        if (row < 0) return tr("There is no run %1 in the store.").arg(id);
        if (model_->run(row).mayStillRun() || id == model_->attachedRun())
            return tr("Run %1 has not ended: stop it before deleting it.").arg(id);
    }
    return writeAndReload([&](store::SqliteRunStore& w) {
        for (qint64 id : runs) w.deleteRun({id});
    });
}

void RunsController::askAnnotate(qint64 runId)
{
    const int row = model_->rowOfRun(runId);
    if (row < 0 || !interactive_) return;
    const store::RunRow& r = model_->run(row);
    RunNotesDialog dialog(tr("Run %1").arg(runId), r.name, r.tags, r.notes, view_);
    if (dialog.exec() != QDialog::Accepted) return;
    if (const QString error = annotateRun(runId, dialog.name(), dialog.tags(), dialog.notes()); !error.isEmpty())
        QMessageBox::warning(view_, tr("Run %1").arg(runId), error);
}

void RunsController::askDelete(const QList<qint64>& runs)
{
    if (runs.isEmpty() || !interactive_) return;
    QStringList names;
    for (qint64 id : runs) names << QString::number(id);
    const QString question =
        tr("Delete run(s) %1 from the run store? Their metrics, logs, events and checkpoint records go and cannot be "
           "restored. Checkpoint files stay where they are on disk: delete those folders yourself if you no longer "
           "need them.")
            .arg(names.join(QStringLiteral(", ")));
    if (QMessageBox::question(view_, tr("Delete runs"), question, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) !=
        QMessageBox::Yes)
        return;
    if (const QString error = deleteRuns(runs); !error.isEmpty()) QMessageBox::warning(view_, tr("Delete runs"), error);
}

void RunsController::reload()
{
    clock_.start();
    // Runs whose launcher on this machine is gone are marked failed before they are listed.
    // (The history says when the store cannot be read; a failed mark is said below.)
    QList<launch::AbandonedRun> abandoned;
    if (const Result<std::unique_ptr<store::RunReader>> reader = store_->openReader(); reader && reader.value())
        abandoned = launch::findAbandonedRuns(*reader.value());
    QString markError;
    if (!abandoned.isEmpty()) {
        const Result<std::shared_ptr<store::SqliteRunStore>> writer = store_->writer();
        const Status marked = writer ? launch::markAbandonedRuns(*writer.value(), abandoned) : writer.status();
        if (!marked) markError = qtMessage(marked);
    }
    const QList<qint64> selected = view_->selectedRuns();
    history_.load(store_->path(), model_->runsWithDetails());
    model_->setRuns(history_.runs());
    view_->selectRuns(selected);
    rowsMs_ = clock_.nsecsElapsed() / 1e6;
    const QString error = history_.error(), path = store_->path();
    const int count = static_cast<int>(history_.runs().size());
    view_->setLoadInfo([error, markError, path, count] {
        if (!error.isEmpty()) return tr("Cannot read the run store: %1").arg(error);
        if (!markError.isEmpty()) return tr("The run store cannot be written: %1").arg(markError);
        return tr("%n run(s) in %1", nullptr, count).arg(path);
    });
    Q_EMIT reloaded();
}

bool RunsController::refreshDetached(qint64 following)
{
    if (isRefreshing()) return true;
    // From the rows listed (no second read of the store): the detached runs
    // that have not ended, but the one followed already.
    QList<store::RunRow> rows;
    for (int row = 0; row < model_->rowCount(); ++row)
        if (model_->run(row).id != following) rows << model_->run(row);
    const QList<qint64> runs = launch::DetachedRefresh::pendingRuns(rows);
    if (runs.isEmpty()) return false;
    if (!refresh_) {
        Result<std::shared_ptr<store::SqliteRunStore>> writer = store_->writer();
        if (!writer) return false;
        writer_ = std::move(writer).value();
        refresh_ = std::make_unique<launch::DetachedRefresh>(store_->path(), *writer_, &hostKeys_);
        connect(refresh_.get(), &launch::DetachedRefresh::finished, this, [this](const QStringList& errors) {
            reload();
            if (!errors.isEmpty()) {
                const QString first = errors.front();
                const int count = static_cast<int>(errors.size());
                view_->setLoadInfo([first, count] { return tr("%n detached run(s) could not be reached: %1", nullptr, count).arg(first); });
            }
            Q_EMIT detachedRefreshed();
        });
    }
    refresh_->start(runs);
    const int count = static_cast<int>(runs.size());
    view_->setLoadInfo([count] { return tr("Catching up with %n detached run(s)…", nullptr, count); });
    return true;
}

} // namespace sb::gui
