#include "screenshot_support.hpp"

#include "window/language_manager.hpp"
#include "window/main_window.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QStatusBar>
#include <QTextStream>
#include <QWidget>

namespace sb::gui {

void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return true;
}

void Shooter::shoot(QWidget* w, const QString& name)
{
    settle();
    const QString path = dir_.filePath(name + QStringLiteral(".png"));
    if (w->grab().save(path)) QTextStream(stdout) << "wrote " << path << '\n';
    else fail(QStringLiteral("cannot write ") + path);
}

void Shooter::shootAtScreenSizes(QWidget* window, const QString& name)
{
    const QSize was = window->size();
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        window->resize(size);
        shoot(window, QStringLiteral("%1-%2x%3").arg(name).arg(size.width()).arg(size.height()));
    }
    window->resize(was);
}

void Shooter::shootTranslated(MainWindow& window, const QString& name)
{
    const QString was = window.languages()->language();
    window.statusBar()->clearMessage(); // said in the language before, about an earlier shot
    for (const QString language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        window.languages()->setLanguage(language);
        shootAtScreenSizes(&window, name + QLatin1Char('-') + language);
    }
    window.languages()->setLanguage(was);
    settle();
}

void Shooter::fail(const QString& why)
{
    QTextStream(stderr) << why << '\n';
    ok_ = false;
}

} // namespace sb::gui
