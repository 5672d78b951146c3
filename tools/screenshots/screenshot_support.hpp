// Shared by the screenshot runners: grabbing a widget into DIR/NAME.png after
// the event loop has settled, and waiting for a condition while events run.
#pragma once

#include <QDir>
#include <QString>

#include <functional>

class QWidget;

namespace sb::gui {

class MainWindow;

// Lets layouts, charts and posted events settle.
void settle(int ms = 150);
// Runs events until `done` holds; false after `timeoutMs`.
bool waitUntil(const std::function<bool()>& done, int timeoutMs);

class Shooter {
public:
    explicit Shooter(const QString& dir) : dir_(dir) {}
    void shoot(QWidget* w, const QString& name);
    // The whole window at a laptop's 1366x768 and at 1920x1080 ("NAME-1366x768"),
    // then at the size it had.
    void shootAtScreenSizes(QWidget* window, const QString& name);
    // The same in German and in Chinese ("NAME-de-1366x768", "NAME-zh_CN-..."),
    // then back in the window's language.
    void shootTranslated(MainWindow& window, const QString& name);
    void fail(const QString& why);
    bool ok() const { return ok_; }

private:
    QDir dir_;
    bool ok_ = true;
};

} // namespace sb::gui
