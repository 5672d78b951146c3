// Shared by the workbench suites: private settings per test run, a shown main
// window, and small helpers to find rows and wait for the memory view.
#pragma once

#include "window/main_window.hpp"

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace sb::gui::test {

// Call once in initTestCase(): settings go to a temporary folder.
void isolateSettings();

// A shown, non-interactive main window (no dialogs), with its language manager.
struct Workbench {
    Workbench();
    ~Workbench();
    std::unique_ptr<LanguageManager> languages;
    std::unique_ptr<MainWindow> window;
    MainWindow* operator->() const { return window.get(); }
};

// Waits until the memory view shows the document's current revision.
bool waitForMemoryView(MainWindow& w);
int moduleIndex(const MainWindow& w, const char* path);
QString sourcePath(const QString& relative); // under SB_SOURCE_DIR

} // namespace sb::gui::test
