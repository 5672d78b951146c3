// Shared by the workbench suites: private settings per test run, a shown main
// window, and small helpers to find rows and wait for the memory view.
#pragma once

#include "window/main_window.hpp"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>
#include <memory>

class QValueAxis;

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

// Part 2: where the workbench finds shardbench-core (this build's), keeps its
// run store and writes launched plans (all under `dir`).
void useRunFolder(const QString& dir);
// The tiny plan of the brief, written by shardbench-cli: transformer, vocab 64,
// dim 32, 2 layers, 2 heads, seq 16, batch 2, 2 processes, `steps` steps.
QString writeTinyPlan(const QString& path, int steps = 20, const QStringList& moreOptions = {}); // moreOptions: `plan`'s
QString binPath(const QString& name); // under SB_BIN_DIR

// Waits until the memory view shows the document's current revision.
bool waitForMemoryView(MainWindow& w);
int moduleIndex(const MainWindow& w, const char* path);
// The tick labels a value axis with round ticks (setRoundRange) shows: each
// multiple of its interval from the anchor within its range, in its label format.
QStringList tickLabels(const QValueAxis* axis);
QString sourcePath(const QString& relative); // under SB_SOURCE_DIR

// A suite's main() on an offscreen screen of a laptop's size, 1366x768 (the
// platform plugin's config file): makes the QApplication, then returns
// `exec(argc, argv)` (QTest::qExec of the suite's test object).
int runOnLaptopScreen(int argc, char** argv, const std::function<int(int, char**)>& exec);

} // namespace sb::gui::test
