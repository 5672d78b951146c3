// Renders each view of the workbench into PNG files (docs/screenshots/),
// driven by the developer tool shardbench-screenshots (scripts/screenshots.sh): a few representative plans,
// each view grabbed with QWidget::grab, then the application quits.
#pragma once

#include <QString>

namespace sb::gui {

class MainWindow;

// Returns the process exit code: 0 when every image was written.
int runScreenshots(MainWindow& window, const QString& directory, const QString& sourceDirectory);

} // namespace sb::gui
