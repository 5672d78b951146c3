#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "views/memory_view.hpp"
#include "window/file_controller.hpp"
#include "window/language_manager.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QTest>

namespace sb::gui::test {

void isolateSettings()
{
    static QTemporaryDir dir;
    QCoreApplication::setOrganizationName(QStringLiteral("shardbench-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("shardbench"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

Workbench::Workbench() : languages(new LanguageManager), window(new MainWindow(languages.get()))
{
    window->files()->setInteractive(false);
    window->resize(1400, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) qWarning("the main window was not exposed");
    waitForMemoryView(*window);
}

Workbench::~Workbench()
{
    window.reset();
    languages->setLanguage(QStringLiteral("en"));
}

bool waitForMemoryView(MainWindow& w)
{
    return QTest::qWaitFor([&] { return w.memoryView()->shownRevision() == w.document()->revision(); }, 5000);
}

int moduleIndex(const MainWindow& w, const char* path) { return w.document()->tree().findModule(path); }

QString sourcePath(const QString& relative)
{
    return QDir(qEnvironmentVariable("SB_SOURCE_DIR")).filePath(relative);
}

} // namespace sb::gui::test
