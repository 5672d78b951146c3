#include "main_actions.hpp"

#include "language_manager.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace sb::gui {

namespace {

struct MainActionsText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::MainActionsText)
};

QAction* action(QMainWindow* w, const char* name, QKeySequence shortcut = {}, QStyle::StandardPixmap icon = QStyle::SP_CustomBase)
{
    auto* a = new QAction(w);
    a->setObjectName(QString::fromLatin1(name));
    if (!shortcut.isEmpty()) a->setShortcut(shortcut);
    if (icon != QStyle::SP_CustomBase) a->setIcon(QApplication::style()->standardIcon(icon));
    return a;
}

} // namespace

void MainActions::create(QMainWindow* w, QUndoStack* undoStack)
{
    newPlan = action(w, "actionNew", QKeySequence::New, QStyle::SP_FileIcon);
    open = action(w, "actionOpen", QKeySequence::Open, QStyle::SP_DialogOpenButton);
    save = action(w, "actionSave", QKeySequence::Save, QStyle::SP_DialogSaveButton);
    saveAs = action(w, "actionSaveAs", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    importTree = action(w, "actionImportTree", QKeySequence(Qt::CTRL | Qt::Key_I));
    newFromHf = action(w, "actionNewFromHf");
    exportScript = action(w, "actionExportScript", QKeySequence(Qt::CTRL | Qt::Key_E));
    exportPng = action(w, "actionExportPng");
    exportSvg = action(w, "actionExportSvg");
    exportCsv = action(w, "actionExportCsv");
    quit = action(w, "actionQuit", QKeySequence(Qt::CTRL | Qt::Key_Q));
    undo = action(w, "actionUndo", QKeySequence(Qt::CTRL | Qt::Key_Z), QStyle::SP_ArrowBack);
    redo = action(w, "actionRedo", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QStyle::SP_ArrowForward);
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    selectAll = action(w, "actionSelectAll", QKeySequence::SelectAll);
    makeBlocks = action(w, "actionMakeBlocks", QKeySequence(Qt::CTRL | Qt::Key_B));
    makeUnits = action(w, "actionMakeUnits", QKeySequence(Qt::CTRL | Qt::Key_U));
    removeUnits = action(w, "actionRemoveUnits", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    about = action(w, "actionAbout");

    languageGroup = new QActionGroup(w);
    systemLanguage = action(w, "languageSystem");
    systemLanguage->setCheckable(true);
    systemLanguage->setData(QString());
    languageGroup->addAction(systemLanguage);
    for (const Language& l : LanguageManager::languages()) {
        QAction* a = action(w, "language");
        a->setObjectName(QStringLiteral("language_") + l.code);
        a->setText(l.nativeName); // each language in its own words, never translated
        a->setCheckable(true);
        a->setData(l.code);
        languageGroup->addAction(a);
        languages << a;
    }

    QMenuBar* bar = w->menuBar();
    file = bar->addMenu(QString());
    file->addActions({newPlan, newFromHf, open});
    recent = file->addMenu(QString());
    file->addActions({save, saveAs});
    file->addSeparator();
    file->addAction(importTree);
    exportMenu = file->addMenu(QString());
    exportMenu->addActions({exportScript, exportPng, exportSvg, exportCsv});
    file->addSeparator();
    file->addAction(quit);
    edit = bar->addMenu(QString());
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addActions({selectAll, makeUnits, removeUnits, makeBlocks});
    view = bar->addMenu(QString());
    settings = bar->addMenu(QString());
    language = settings->addMenu(QString());
    language->addAction(systemLanguage);
    language->addSeparator();
    language->addActions(languages);
    help = bar->addMenu(QString());
    help->addAction(about);

    toolbar = w->addToolBar(QString());
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->addActions({newPlan, open, save});
    toolbar->addSeparator();
    toolbar->addActions({undo, redo});
    toolbar->addSeparator();
    toolbar->addAction(makeBlocks);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    retranslate(undoStack);
}

void MainActions::retranslate(QUndoStack* undoStack)
{
    newPlan->setText(MainActionsText::tr("&New plan"));
    open->setText(MainActionsText::tr("&Open…"));
    save->setText(MainActionsText::tr("&Save"));
    saveAs->setText(MainActionsText::tr("Save &as…"));
    importTree->setText(MainActionsText::tr("&Import module tree…"));
    newFromHf->setText(MainActionsText::tr("New plan from a &Hugging Face model folder…"));
    exportScript->setText(MainActionsText::tr("PyTorch FSDP2 &script…"));
    exportPng->setText(MainActionsText::tr("Charts as &PNG…"));
    exportSvg->setText(MainActionsText::tr("Charts as S&VG…"));
    exportCsv->setText(MainActionsText::tr("Memory breakdown as &CSV…"));
    quit->setText(MainActionsText::tr("&Quit"));
    selectAll->setText(MainActionsText::tr("Select &all modules"));
    makeBlocks->setText(MainActionsText::tr("Make every &block a unit"));
    makeBlocks->setIconText(MainActionsText::tr("Blocks as units"));
    makeBlocks->setToolTip(MainActionsText::tr("Make each repeated block (layers.0, layers.1, …) a shard unit, as the FSDP2 tutorial does"));
    makeUnits->setText(MainActionsText::tr("Make selected modules &units"));
    removeUnits->setText(MainActionsText::tr("&Remove selected units"));
    systemLanguage->setText(MainActionsText::tr("&System language"));
    about->setText(MainActionsText::tr("&About shardbench"));
    file->setTitle(MainActionsText::tr("&File"));
    recent->setTitle(MainActionsText::tr("Open &recent"));
    exportMenu->setTitle(MainActionsText::tr("&Export"));
    edit->setTitle(MainActionsText::tr("&Edit"));
    view->setTitle(MainActionsText::tr("&View"));
    settings->setTitle(MainActionsText::tr("&Settings"));
    language->setTitle(MainActionsText::tr("&Language"));
    help->setTitle(MainActionsText::tr("&Help"));
    toolbar->setWindowTitle(MainActionsText::tr("Main toolbar"));
    updateUndoRedo(undoStack);
}

void MainActions::updateUndoRedo(QUndoStack* undoStack)
{
    const QString u = undoStack->undoText();
    const QString r = undoStack->redoText();
    undo->setText(u.isEmpty() ? MainActionsText::tr("&Undo") : MainActionsText::tr("&Undo %1").arg(u));
    redo->setText(r.isEmpty() ? MainActionsText::tr("&Redo") : MainActionsText::tr("&Redo %1").arg(r));
    undo->setIconText(MainActionsText::tr("Undo"));
    redo->setIconText(MainActionsText::tr("Redo"));
    undo->setEnabled(undoStack->canUndo());
    redo->setEnabled(undoStack->canRedo());
}

} // namespace sb::gui
