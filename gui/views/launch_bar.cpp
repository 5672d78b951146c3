#include "launch_bar.hpp"

#include "named_widget.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace sb::gui {

LaunchBar::LaunchBar(QWidget* parent)
    : Retranslated<QWidget>(parent), whereLabel_(new QLabel), target_(named<QPushButton>("launchBarTarget")),
      keepRunning_(named<QCheckBox>("launchBarKeepRunning")), launch_(named<QPushButton>("launchBarLaunch"))
{
    setObjectName(QStringLiteral("launchBar"));
    target_->setFlat(true);
    launch_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->addWidget(whereLabel_);
    layout->addWidget(target_);
    layout->addSpacing(6);
    layout->addWidget(keepRunning_);
    layout->addWidget(launch_);
    connect(launch_, &QPushButton::clicked, this, &LaunchBar::launchRequested);
    connect(target_, &QPushButton::clicked, this, &LaunchBar::targetRequested);
    retranslateUi();
}

void LaunchBar::setStart(Start start, qint64 run, int step)
{
    start_ = start;
    restoreRun_ = run;
    restoreStep_ = step;
    retranslateUi();
}

void LaunchBar::setTarget(const launch::LaunchTarget& target)
{
    where_ = target;
    retranslateUi();
}

void LaunchBar::setBusy(bool busy)
{
    busy_ = busy;
    launch_->setEnabled(!busy);
    keepRunning_->setEnabled(!busy);
    retranslateUi();
}

QString LaunchBar::whereText(const launch::LaunchTarget& target)
{
    switch (launch::backendOf(target)) {
    case launch::BackendKind::Local: return tr("this machine");
    case launch::BackendKind::Slurm: {
        const QString partition = std::get<launch::SlurmTarget>(target).options.partition;
        return partition.isEmpty() ? tr("a Slurm allocation") : tr("Slurm (partition %1)").arg(partition);
    }
    case launch::BackendKind::Ssh: break;
    }
    const QList<launch::HostSpec> hosts = launch::sshHosts(target);
    QStringList names;
    for (const launch::HostSpec& h : hosts) names << h.hostPart();
    if (names.isEmpty()) return tr("no host chosen");
    if (names.size() > 2) names = names.mid(0, 2) << QStringLiteral("…");
    return tr("%n host(s): %1", nullptr, static_cast<int>(hosts.size())).arg(names.join(QStringLiteral(", ")));
}

void LaunchBar::retranslateUi()
{
    const QString where = whereText(where_);
    whereLabel_->setText(tr("Run on"));
    target_->setText(where);
    target_->setToolTip(tr("Where the next run goes: choose it in the Run area"));
    keepRunning_->setText(tr("Keep running"));
    keepRunning_->setToolTip(tr("Detached: the run goes on when the workbench closes (as the Run area's \"Keep running when the workbench closes\")"));
    switch (start_) {
    case Start::Run:
        launch_->setText(tr("Launch run"));
        launch_->setToolTip(tr("Start the open plan as a new run on %1").arg(where));
        break;
    case Start::Detached:
        launch_->setText(tr("Launch detached"));
        launch_->setToolTip(tr("Start the open plan as a detached run on %1: it keeps running when the workbench closes").arg(where));
        break;
    case Start::Restore:
        launch_->setText(tr("Restore run %1 at step %2…").arg(restoreRun_).arg(restoreStep_));
        launch_->setToolTip(tr("Restore the checkpoint chosen in the Checkpoints area as a new run"));
        break;
    }
    if (busy_) launch_->setToolTip(tr("A run is being checked, runs or is followed: the Run area shows it"));
}

} // namespace sb::gui
