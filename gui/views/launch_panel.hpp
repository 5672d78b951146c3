// Launching the open plan: where (this machine or chosen hosts), a name, the
// restarts allowed, whether the run outlives the workbench (detached), then
// Check / Launch / Stop, and Detach while following a detached run, in one
// column. The pre-flight checks show below with their progress; a failed
// check says plainly what is wrong. Messages go below the buttons, so they
// never push a field down.
#pragma once

#include "retranslated.hpp"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace sb::app {
class HostCatalog;
} // namespace sb::app

namespace sb::gui {

class EngineChooser;
class GoingRunsBar;
class PreflightModel;
class TargetChooser;

class LaunchPanel : public Retranslated<QWidget> {
    Q_OBJECT
public:
    enum class State { Idle, Checking, Launching, Running, Stopping };

    LaunchPanel(app::HostCatalog* catalog, PreflightModel* preflight, QWidget* parent = nullptr);

    TargetChooser* targetChooser() const { return target_; }
    QLineEdit* nameEdit() const { return name_; }
    QSpinBox* restartsBox() const { return restarts_; }
    EngineChooser* engineChooser() const { return engine_; }
    // "Start from weights": a .safetensors file or a Hugging Face model folder ("" = the plan's initialisation).
    QLineEdit* initFromEdit() const { return initFrom_; }
    QPushButton* checkButton() const { return check_; }
    QPushButton* launchButton() const { return launch_; }
    QPushButton* stopButton() const { return stop_; }
    QCheckBox* detachBox() const { return detachBox_; }
    QPushButton* detachButton() const { return detach_; }
    QTableView* checksTable() const { return checks_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* messageLabel() const { return message_; }
    // What is launched when it is not the open plan ("Restoring run 1 from …"); hidden for the plan.
    QLabel* subjectLabel() const { return subject_; }
    // Detached runs that went on while the workbench was closed, offered to attach to.
    GoingRunsBar* goingRunsBar() const { return going_; }

    void setState(State state);
    // While running: the run is detached and followed (Detach is offered;
    // Stop stops it where it runs).
    void setFollowing(bool following);
    void setProgress(int done, int total);
    void setMessage(const QString& text, bool error);
    // What is launched when it is not the open plan (a restore), "" for the plan.
    void setSubject(const QString& text);

Q_SIGNALS:
    void checkRequested();
    void launchRequested();
    void stopRequested();
    void detachRequested();

private:
    void retranslateUi() override;
    void chooseWeights();

    TargetChooser* target_;
    EngineChooser* engine_;
    QLabel* engineLabel_;
    QLineEdit* name_;
    QSpinBox* restarts_;
    QLineEdit* initFrom_;
    QPushButton* chooseWeights_;
    QLabel* initFromLabel_;
    QPushButton* check_;
    QPushButton* launch_;
    QPushButton* stop_;
    QCheckBox* detachBox_;
    QPushButton* detach_;
    QProgressBar* progress_;
    QTableView* checks_;
    QLabel* message_;
    QLabel* subject_;
    GoingRunsBar* going_;
    QLabel* whereLabel_;
    QLabel* nameLabel_;
    QLabel* restartsLabel_;
    State state_ = State::Idle;
    bool following_ = false;
};

} // namespace sb::gui
