// Importing a module tree in the format scripts/export_module_tree.py writes.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "models/plan_tree_model.hpp"
#include "models/memory_model.hpp"
#include "window/file_controller.hpp"

#include "json/json.hpp"
#include "plan/plan_json.hpp"

#include <QFile>
#include <QTest>
#include <QUndoStack>

using namespace sb;
using namespace sb::gui;

class TestImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void importsTheExample();
    void refusesWhatIsNotATree();
};

void TestImport::importsTheExample()
{
    const QString path = test::sourcePath(QStringLiteral("examples/module_tree_small.json"));
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const json::ParseResult parsed = json::parse(file.readAll().toStdString());
    QVERIFY(parsed);
    ModuleTree reference;
    Problems ps;
    QVERIFY(moduleTreeFromJson(*parsed.value, JsonPath(), reference, ps));

    test::Workbench w;
    PlanDocument* doc = w->document();
    QVERIFY(w->files()->importModuleTreeFile(path));
    QCOMPARE(doc->plan().model.arch, Arch::Imported);
    QCOMPARE(doc->tree().modules().size(), reference.modules().size());
    QCOMPARE(doc->tree().totalParams(), reference.totalParams());
    QVERIFY(!doc->hasErrors());
    // The tree shows the imported root with its parameter count, and every block is a unit.
    PlanTreeModel* model = w->planTreeModel();
    QCOMPARE(model->index(0, PlanTreeModel::TypeColumn).data().toString(), QString::fromStdString(reference.module(0).type));
    QCOMPARE(model->index(0, PlanTreeModel::ParamsColumn).data().toString(), QLocale().toString(static_cast<qlonglong>(reference.totalParams())));
    for (int b : reference.blocks()) QVERIFY(model->isUnit(b));
    QVERIFY(test::waitForMemoryView(*w.window));
    QVERIFY(w->memoryModel()->hasEstimate());
    // Saved, it reads back as the same imported plan.
    const LoadedPlan back = validateLoaded(planFromString(planToString(doc->plan())));
    QVERIFY(back.ok());
    QCOMPARE(back.tree->modules().size(), reference.modules().size());
    // The import is one undoable step.
    doc->undoStack()->undo();
    QCOMPARE(doc->plan().model.arch, Arch::Tutorial);
}

void TestImport::refusesWhatIsNotATree()
{
    test::Workbench w;
    QVERIFY(!w->files()->importModuleTreeFile(test::sourcePath(QStringLiteral("CMakeLists.txt"))));
    QCOMPARE(w->document()->plan().model.arch, Arch::Tutorial);
}

QTEST_MAIN(TestImport)
#include "tst_gui_import.moc"
