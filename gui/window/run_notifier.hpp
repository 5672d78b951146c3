// Delivers a run's alerts (launcher/launch/run_alerts.hpp) where a person notices
// them: the status bar, a desktop notification (the system tray's, where
// the desktop has one; Settings > Notify about runs) and, when set, a
// command the user chose (Settings > Alert command…), run with the alert in
// its environment: SHARDBENCH_ALERT (finished, failed, stalled, nan_loss),
// SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME, SHARDBENCH_MESSAGE (English).
#pragma once

#include "launch/run_alerts.hpp"

#include <QObject>
#include <QString>

class QAction;
class QSystemTrayIcon;
class QWidget;

namespace sb::gui {

class RunNotifier : public QObject {
    Q_OBJECT
public:
    explicit RunNotifier(QWidget* window, QObject* parent = nullptr);

    // Settings > Notify about runs (checkable) and Settings > Alert command….
    QAction* notifyAction() const { return notify_; }
    QAction* commandAction() const { return command_; }
    // Without interaction no dialog opens (tests, screenshots).
    void setInteractive(bool interactive) { interactive_ = interactive; }
    void retranslate();

    void deliver(const launch::RunAlert& alert);
    // The alert in the workbench's language, as the status bar and the notification say it.
    static QString alertText(const launch::RunAlert& alert);

Q_SIGNALS:
    void statusMessage(const QString& text);
    // After each alert: what was said and whether the command was started.
    void delivered(const sb::launch::RunAlert& alert, const QString& text, bool commandStarted);

private:
    void chooseCommand();

    QWidget* window_;
    QAction* notify_;
    QAction* command_;
    QSystemTrayIcon* tray_ = nullptr;
    bool interactive_ = true;
};

} // namespace sb::gui
