// Restoring a checkpoint as a new run: the world size (loading reshards to
// any), where it runs, until which step, where it saves its own checkpoints
// and its name. The adjusted mesh and any problem of the resulting plan are
// shown as you choose; the new run is linked to its parent in the store and
// runs as its parent ran (`runAs`: the engine, and a PyTorch run's script,
// arguments and Python, which load a DCP checkpoint at any world size).
#pragma once

#include "run/launch_request.hpp"
#include "run/restore_plan.hpp"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sb::app {
class HostCatalog;
} // namespace sb::app

namespace sb::gui {

class TargetChooser;

class RestoreDialog : public QDialog {
    Q_OBJECT
public:
    RestoreDialog(app::HostCatalog* catalog, const app::RestoreSource& source, const QString& checkpointDir, qint64 parentRun,
                  const QString& parentLabel, const launch::RunConfig& runAs = {}, QWidget* parent = nullptr);

    app::LaunchRequest request() const;
    bool isValid() const { return valid_; }
    QSpinBox* worldSizeBox() const { return world_; }
    QSpinBox* stepsBox() const { return steps_; }
    QLineEdit* checkpointDirEdit() const { return dir_; }
    QLineEdit* nameEdit() const { return name_; }
    TargetChooser* targetChooser() const { return target_; }
    QLabel* problemsLabel() const { return problems_; }
    QPushButton* restoreButton() const { return ok_; }

private:
    void update();
    Plan plan() const;

    app::RestoreSource source_;
    QString checkpoint_;
    qint64 parentRun_;
    launch::RunConfig runAs_;
    TargetChooser* target_;
    QSpinBox* world_;
    QSpinBox* steps_;
    QLineEdit* dir_;
    QLineEdit* name_;
    QLabel* mesh_;
    QLabel* problems_;
    QPushButton* ok_;
    bool valid_ = false;
};

} // namespace sb::gui
