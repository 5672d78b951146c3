// Files of the workbench: new / open / save plans (with the unsaved-changes
// prompt and recent files), importing a module tree, and the exports
// (FSDP2 script, charts as PNG/SVG, breakdown as CSV). Each action has a
// dialog-free variant taking a path, which the dialogs and tests both use.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace sb::gui {

class MemoryModel;
class MemoryView;
class PlanDocument;
class RecentFiles;

class FileController : public QObject {
    Q_OBJECT
public:
    FileController(PlanDocument* document, MemoryModel* memory, MemoryView* memoryView, RecentFiles* recent,
                   QWidget* window);

    // Without interaction nothing asks or shows a message box: errors are only
    // signalled and unsaved changes are discarded (tests, screenshots).
    void setInteractive(bool interactive) { interactive_ = interactive; }

    bool maybeSave();
    void newPlan();
    bool open();
    bool openFile(const QString& path);
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    bool importModuleTree();
    bool importModuleTreeFile(const QString& path);
    // A new plan for the model of a Hugging Face folder (its config.json; the
    // weights' headers, when there, checked against it); what the core does
    // not compute is refused naming the field.
    bool newPlanFromHf();
    bool newPlanFromHfFolder(const QString& dir);
    bool exportScript();
    bool exportScriptTo(const QString& path);
    bool exportChartsPng();
    bool exportChartsSvg();
    bool exportCsv();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& text);
    void statusMessage(const QString& text);
    // A plan was made from a model folder that holds its weights: the launch may start from them.
    void weightsFolderOpened(const QString& dir);

private:
    QString askOpenPath(const QString& title, const QString& filter);
    QString askSavePath(const QString& title, const QString& filter, const QString& suggestedName);
    bool report(const QString& title, const QString& error);

    PlanDocument* document_;
    MemoryModel* memory_;
    MemoryView* memoryView_;
    RecentFiles* recent_;
    QWidget* window_;
    bool interactive_ = true;
};

} // namespace sb::gui
