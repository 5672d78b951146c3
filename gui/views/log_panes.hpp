// The log of a run, one pane per rank (and the launcher's, and all of them),
// with one filter for every pane (in the tabs' corner, beside Enlarge).
// Panes follow new lines while they are scrolled to the bottom. The Enlarge
// button asks for the whole view (the charts above give way) and back.
#pragma once

#include "retranslated.hpp"

#include <QList>
#include <QWidget>

class QLineEdit;
class QListView;
class QTabWidget;
class QToolButton;

namespace sb::gui {

class LogFilterProxy;
class RunLogModel;

class LogPanes : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit LogPanes(QWidget* parent = nullptr);

    // Rebuilds the panes for `worldSize` ranks.
    void setModel(RunLogModel* model, int worldSize);
    QLineEdit* filterEdit() const { return filter_; }
    QTabWidget* tabs() const { return tabs_; }
    QToolButton* enlargeButton() const { return enlarge_; }
    // Lines shown in the pane of `rank` (RunLogModel::kLauncher, or LogFilterProxy::kAllRanks).
    int shownLines(int rank) const;
    // Shows the pane of `rank` (as a click on its tab does).
    void showRank(int rank);

Q_SIGNALS:
    // The pane of one rank (>= 0) was brought up: a detached run fetches that
    // rank's log then (only rank 0's is followed live).
    void rankPaneShown(int rank);
    // The Enlarge button was toggled: the logs want all the room (or give it back).
    void enlargeToggled(bool large);

private:
    void retranslateUi() override;
    void addPane(int rank);

    RunLogModel* model_ = nullptr;
    QLineEdit* filter_;
    QTabWidget* tabs_;
    QToolButton* enlarge_;
    QList<LogFilterProxy*> proxies_;
};

} // namespace sb::gui
