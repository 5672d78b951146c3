// Where a run's ranks go: this machine, the checked hosts (in the order
// listed; each runs its GPU count of ranks, or the plan's processes per node),
// or a Slurm allocation that srun on this machine (a login node) asks for.
#pragma once

#include "retranslated.hpp"

#include "run/launch_request.hpp"

#include <QWidget>

class QLineEdit;
class QListWidget;
class QRadioButton;

namespace sb::app {
class HostCatalog;
} // namespace sb::app

namespace sb::gui {

class TargetChooser : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit TargetChooser(app::HostCatalog* catalog, QWidget* parent = nullptr);

    launch::LaunchTarget target() const;
    void setLocal(bool local);
    void setHostChecked(const QString& name, bool checked);
    QRadioButton* localButton() const { return local_; }
    QRadioButton* hostsButton() const { return remote_; }
    QRadioButton* slurmButton() const { return slurm_; }
    QLineEdit* partitionEdit() const { return partition_; }
    QLineEdit* timeLimitEdit() const { return timeLimit_; }
    QListWidget* hostList() const { return hosts_; }

Q_SIGNALS:
    void changed();

private:
    void reload();
    void retranslateUi() override;

    app::HostCatalog* catalog_;
    QRadioButton* local_;
    QRadioButton* remote_;
    QListWidget* hosts_;
    QRadioButton* slurm_;
    QWidget* slurmForm_;
    QLineEdit* partition_;
    QLineEdit* account_;
    QLineEdit* timeLimit_;
};

} // namespace sb::gui
