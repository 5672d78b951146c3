// The Runs area's data flow: (re)loading the history from the store when it
// changes, measuring how long that takes, and loading the runs selected for
// comparison.
#pragma once

#include "session/compare_loader.hpp"
#include "session/history_loader.hpp"

#include <QElapsedTimer>
#include <QObject>

namespace sb::gui {

class RunsModel;
class RunsView;
class StoreAccess;

class RunsController : public QObject {
    Q_OBJECT
public:
    RunsController(StoreAccess* store, RunsModel* model, RunsView* view, QObject* parent = nullptr);

    void reload();
    HistoryLoader* history() { return &history_; }
    CompareLoader* compare() { return &compare_; }
    // Milliseconds from the start of the last reload until the table showed
    // every run, and until every detail column was filled.
    double lastRowsMs() const { return rowsMs_; }
    double lastDetailsMs() const { return detailsMs_; }

Q_SIGNALS:
    void reloaded();
    void detailsLoaded();

private:
    StoreAccess* store_;
    RunsModel* model_;
    RunsView* view_;
    HistoryLoader history_;
    CompareLoader compare_;
    QElapsedTimer clock_;
    double rowsMs_ = 0;
    double detailsMs_ = 0;
};

} // namespace sb::gui
