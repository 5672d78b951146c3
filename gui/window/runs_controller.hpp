// The Runs area's data flow: (re)loading the history from the store when it
// changes, measuring how long that takes, and loading the runs selected for
// comparison. The first load and Refresh also catch up with every detached
// run that has not ended (launch::DetachedRefresh), so its row shows the
// cluster's truth.
#pragma once

#include "history/compare_loader.hpp"
#include "history/history_loader.hpp"

#include "session/past_run.hpp"

#include "launch/detach/detached_refresh.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/sqlite_run_store.hpp"

#include <QElapsedTimer>
#include <QObject>

#include <functional>

namespace sb::app {
class StoreAccess;
} // namespace sb::app

namespace sb::gui {

class RunsModel;
class RunsView;

class RunsController : public QObject {
    Q_OBJECT
public:
    RunsController(app::StoreAccess* store, RunsModel* model, RunsView* view, QObject* parent = nullptr);

    void reload();
    // Catches up with the detached runs listed that have not ended (but
    // `following`, which is attached already), then reloads and says
    // detachedRefreshed(). False when there is none (nothing happens).
    bool refreshDetached(qint64 following = -1);
    bool isRefreshing() const { return refresh_ && refresh_->isRunning(); }
    app::HistoryLoader* history() { return &history_; }
    app::CompareLoader* compare() { return &compare_; }
    PastRun* pastRun() { return pastRun_; }
    // Milliseconds from the start of the last reload until the table showed
    // every run, and until every detail column was filled.
    double lastRowsMs() const { return rowsMs_; }
    double lastDetailsMs() const { return detailsMs_; }

    // Dialogs (the notes, the confirmation of a delete) only when interactive.
    void setInteractive(bool interactive) { interactive_ = interactive; }
    // A person's words on a run; "" or the reason it was not written.
    QString annotateRun(qint64 runId, const QString& name, const QStringList& tags, const QString& notes);
    // Removes runs and their records from the store; refuses, naming it, a run
    // that is still running here or on its cluster. Checkpoint files stay on disk.
    QString deleteRuns(const QList<qint64>& runs);

Q_SIGNALS:
    void reloaded();
    void detailsLoaded();
    void detachedRefreshed();

private:
    app::StoreAccess* store_;
    RunsModel* model_;
    RunsView* view_;
    app::HistoryLoader history_;
    app::CompareLoader compare_;
    PastRun* pastRun_; // the page's: its models live as long as the views that draw them
    QElapsedTimer clock_;
    launch::FixedHostKeyPolicy hostKeys_{launch::HostKeyDecision::Reject}; // the launch verified the host
    std::shared_ptr<store::SqliteRunStore> writer_;
    std::unique_ptr<launch::DetachedRefresh> refresh_;
    bool interactive_ = true;

    void askAnnotate(qint64 runId);
    void askDelete(const QList<qint64>& runs);
    QString writeAndReload(const std::function<void(store::SqliteRunStore&)>& write);
    double rowsMs_ = 0;
    double detailsMs_ = 0;
};

} // namespace sb::gui
