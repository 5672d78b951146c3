#include "run_notifier.hpp"

#include "settings/run_settings.hpp"
#include "text/run_text.hpp"

#include <QAction>
#include <QApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QSystemTrayIcon>
#include <QWidget>

namespace sb::gui {

using launch::RunAlert;
using app::RunSettings;

RunNotifier::RunNotifier(QWidget* window, QObject* parent)
    : QObject(parent), window_(window), notify_(new QAction(this)), command_(new QAction(this))
{
    notify_->setObjectName(QStringLiteral("notifyAboutRuns"));
    command_->setObjectName(QStringLiteral("alertCommand"));
    notify_->setCheckable(true);
    notify_->setChecked(RunSettings::notify.value());
    connect(notify_, &QAction::toggled, this, [](bool on) { RunSettings::notify.setValue(on); });
    connect(command_, &QAction::triggered, this, &RunNotifier::chooseCommand);
    retranslate();
}

void RunNotifier::retranslate()
{
    notify_->setText(tr("&Notify about runs (end, failure, stall, loss not finite)"));
    command_->setText(tr("Alert &command…"));
}

QString RunNotifier::alertText(const RunAlert& a)
{
    const QString run = a.runName.isEmpty() ? tr("Run %1").arg(a.runId) : tr("Run %1 (%2)").arg(a.runId).arg(a.runName);
    switch (a.kind) {
    case RunAlert::Finished: return tr("%1 %2 at step %3.").arg(run, runStatusText(a.status)).arg(a.step);
    case RunAlert::Failed: return tr("%1 failed at step %2: %3").arg(run).arg(a.step).arg(a.reason);
    case RunAlert::Stalled: return tr("%1 has reported no step for %2 s (last step %3).").arg(run).arg(a.silentMs / 1000).arg(a.step);
    case RunAlert::NonFiniteLoss: return tr("%1 reported a loss of %2 at step %3.").arg(run).arg(a.loss).arg(a.step);
    }
    return run;
}

void RunNotifier::deliver(const RunAlert& alert)
{
    const QString text = alertText(alert);
    Q_EMIT statusMessage(text);
    if (RunSettings::notify.value() && QSystemTrayIcon::isSystemTrayAvailable() && QSystemTrayIcon::supportsMessages()) {
        if (!tray_) {
            tray_ = new QSystemTrayIcon(window_ ? window_->windowIcon() : QApplication::windowIcon(), this);
            tray_->setToolTip(QStringLiteral("shardbench"));
        }
        tray_->show();
        const bool bad = alert.kind != RunAlert::Finished;
        tray_->showMessage(QStringLiteral("shardbench"), text, bad ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information);
    }
    // Started on its own, never waited for: a slow hook must not hold the window.
    Q_EMIT delivered(alert, text, launch::startAlertCommand(RunSettings::alertCommand.value(), alert));
}

void RunNotifier::chooseCommand()
{
    if (!interactive_) return;
    bool ok = false;
    const QString command = QInputDialog::getText(
        window_, tr("Alert command"),
        tr("A command run on each alert (empty: none), not through a shell. Its environment says what happened: "
           "SHARDBENCH_ALERT (finished, failed, stalled, nan_loss), SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME, SHARDBENCH_MESSAGE."),
        QLineEdit::Normal, RunSettings::alertCommand.value(), &ok);
    if (ok) RunSettings::alertCommand.setValue(command.trimmed());
}

} // namespace sb::gui
