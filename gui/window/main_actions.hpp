// The main window's actions, menus and toolbar: created once, retitled on
// every language change. The window connects them; this only builds them.
#pragma once

#include <QList>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QToolBar;
class QUndoStack;

namespace sb::gui {

struct MainActions {
    QAction* newPlan = nullptr;
    QAction* open = nullptr;
    QAction* save = nullptr;
    QAction* saveAs = nullptr;
    QAction* importTree = nullptr;
    QAction* newFromHf = nullptr;
    QAction* exportScript = nullptr;
    QAction* exportPng = nullptr;
    QAction* exportSvg = nullptr;
    QAction* exportCsv = nullptr;
    QAction* quit = nullptr;
    QAction* undo = nullptr;
    QAction* redo = nullptr;
    QAction* selectAll = nullptr;
    QAction* makeBlocks = nullptr;
    QAction* makeUnits = nullptr;
    QAction* removeUnits = nullptr;
    QAction* systemLanguage = nullptr;
    QList<QAction*> languages; // data(): the language code
    QActionGroup* languageGroup = nullptr;
    QAction* about = nullptr;

    QMenu* file = nullptr;
    QMenu* recent = nullptr;
    QMenu* exportMenu = nullptr;
    QMenu* edit = nullptr;
    QMenu* view = nullptr;
    QMenu* settings = nullptr;
    QMenu* language = nullptr;
    QMenu* help = nullptr;
    QToolBar* toolbar = nullptr;

    void create(QMainWindow* window, QUndoStack* undoStack);
    void retranslate(QUndoStack* undoStack);
    // Undo/redo texts follow the command on top of the stack.
    void updateUndoRedo(QUndoStack* undoStack);
};

} // namespace sb::gui
