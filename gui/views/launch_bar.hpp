// Launch, one click away from every tab: where the next run goes (a button
// that leads to the Run area, where it is chosen), "Keep running" and the
// Launch button, whose words say what it starts: a new run, a detached run,
// or the restore of the checkpoint chosen in the Checkpoints area.
#pragma once

#include "retranslated.hpp"

#include "launch/launch_target.hpp"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace sb::gui {

class LaunchBar : public Retranslated<QWidget> {
    Q_OBJECT
public:
    enum class Start { Run, Detached, Restore };

    explicit LaunchBar(QWidget* parent = nullptr);

    QPushButton* launchButton() const { return launch_; }
    QCheckBox* keepRunningBox() const { return keepRunning_; }
    QPushButton* targetButton() const { return target_; }
    Start start() const { return start_; }

    // What Launch starts; a restore names the run and the step of its checkpoint.
    void setStart(Start start, qint64 run = -1, int step = 0);
    void setTarget(const launch::LaunchTarget& target);
    // While a run is checked, launched or followed, Launch waits (the Run area shows the run).
    void setBusy(bool busy);
    // "this machine", "2 hosts: a, b", "Slurm (partition gpu)", "a Slurm allocation".
    static QString whereText(const launch::LaunchTarget& target);

Q_SIGNALS:
    void launchRequested();
    void targetRequested(); // show where the target is chosen

private:
    void retranslateUi() override;

    QLabel* whereLabel_;
    QPushButton* target_;
    QCheckBox* keepRunning_;
    QPushButton* launch_;
    launch::LaunchTarget where_;
    Start start_ = Start::Run;
    qint64 restoreRun_ = -1;
    int restoreStep_ = 0;
    bool busy_ = false;
};

} // namespace sb::gui
