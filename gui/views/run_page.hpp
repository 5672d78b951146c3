// The Runs area's page of one run: the views of the Run area (its state and
// reason, loss, throughput, memory per rank against the estimate of its
// plan, the step time split; every rank's logs in a tab of their own),
// where and how it ran, its whole plan, and its checkpoints (verified, exported or restored in the
// Checkpoints area).
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace sb::gui {

class CheckpointsModel;
class LiveRunView;
class PastRun;
class PlanDiffModel;

class RunPage : public QWidget {
    Q_OBJECT
public:
    explicit RunPage(QWidget* parent = nullptr);

    // Shows what `run` has loaded (again after each of its loaded()).
    void showRun(PastRun* run);
    qint64 runId() const { return runId_; }

    QTabWidget* tabs() const { return tabs_; }
    LiveRunView* runView() const { return runView_; } // its logs() are the Logs tab
    QLabel* detailsLabel() const { return details_; }
    QTableView* planTable() const { return plan_; }
    PlanDiffModel* planModel() const { return planModel_; }
    QTableView* checkpointsTable() const { return checkpointsTable_; }
    CheckpointsModel* checkpointsModel() const { return checkpoints_; }
    QPushButton* openCheckpointsButton() const { return openCheckpoints_; }

Q_SIGNALS:
    void checkpointsRequested(qint64 run);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    QString detailsText() const;

    PastRun* run_ = nullptr;
    qint64 runId_ = -1;
    bool planReadable_ = true;
    QTabWidget* tabs_;
    QLabel* details_;
    LiveRunView* runView_;
    PlanDiffModel* planModel_;
    QTableView* plan_;
    CheckpointsModel* checkpoints_;
    QTableView* checkpointsTable_;
    QPushButton* openCheckpoints_;
};

} // namespace sb::gui
