// Making a module a unit changes the estimate shown; undo and redo (Ctrl+Z,
// Ctrl+Shift+Z) restore it; edits on a multi-selection apply to every row.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "models/memory_model.hpp"
#include "models/plan_tree_model.hpp"
#include "views/memory_view.hpp"
#include "views/plan_tree_view.hpp"

#include "estimate/estimate.hpp"

#include <QAction>
#include <QTest>
#include <QUndoStack>

using namespace sb;
using namespace sb::gui;

class TestUnitEdit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void makeUnitChangesEstimateAndUndoRedo();
    void multiSelectionEditsEveryRow();
    void everyBlockAUnitIsOneUndoStep();
};

// Presses Space on a cell of the tree, as a person toggling a check box does.
static void toggleCell(PlanTreeView* tree, const QModelIndex& cell)
{
    tree->setFocus();
    tree->selectionModel()->setCurrentIndex(cell, QItemSelectionModel::NoUpdate);
    QTest::keyClick(tree, Qt::Key_Space);
}

void TestUnitEdit::makeUnitChangesEstimateAndUndoRedo()
{
    test::Workbench w;
    QVERIFY(QTest::qWaitForWindowActive(w.window.get()));
    PlanDocument* doc = w->document();
    const QString before = w->memoryView()->verdictText();
    const std::uint64_t peakBefore = w->memoryModel()->estimate().peakBytes();
    QVERIFY(!before.isEmpty());

    // "tok_embeddings" (vocab x dim) leaves the root unit, which keeps its
    // parameters through backward, for a unit of its own that frees them
    // after forward and gathers them again only for its backward, the last.
    // ("output" would not do: its reduce-scatter, in flight at the last
    // block's backward where the peak is, is exactly as large as the
    // parameters it frees.)
    const int embeddings = test::moduleIndex(*w.window, "tok_embeddings");
    QVERIFY(embeddings > 0);
    QVERIFY(!w->planTreeModel()->isUnit(embeddings));
    toggleCell(w->planTree(), w->planTreeModel()->indexOfModule(embeddings, PlanTreeModel::UnitColumn));
    QVERIFY(doc->plan().findUnit("tok_embeddings"));
    QVERIFY(test::waitForMemoryView(*w.window));
    const QString after = w->memoryView()->verdictText();
    QVERIFY2(after != before, qPrintable(after));
    // The view shows the core's own estimate of the edited plan.
    const Estimate reference = estimateMemory(doc->plan(), doc->tree());
    QCOMPARE(w->memoryModel()->estimate().peakBytes(), reference.peakBytes());
    QVERIFY(reference.peakBytes() != peakBefore);

    QTest::keyClick(w.window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(!doc->plan().findUnit("tok_embeddings"));
    QVERIFY(test::waitForMemoryView(*w.window));
    QCOMPARE(w->memoryView()->verdictText(), before);
    QCOMPARE(w->memoryModel()->estimate().peakBytes(), peakBefore);

    QTest::keyClick(w.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(doc->plan().findUnit("tok_embeddings"));
    QVERIFY(test::waitForMemoryView(*w.window));
    QCOMPARE(w->memoryView()->verdictText(), after);
}

void TestUnitEdit::multiSelectionEditsEveryRow()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    PlanTreeView* tree = w->planTree();
    const std::vector<int> blocks = doc->tree().blocks();
    QVERIFY(blocks.size() >= 4);
    tree->selectionModel()->clearSelection();
    for (int i = 0; i < 3; ++i)
        tree->selectionModel()->select(w->planTreeModel()->indexOfModule(blocks[static_cast<std::size_t>(i)]),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const int stepsBefore = doc->undoStack()->count();
    toggleCell(tree, w->planTreeModel()->indexOfModule(blocks[1], PlanTreeModel::CheckpointColumn));
    for (int i = 0; i < 3; ++i)
        QVERIFY(doc->plan().findUnit(doc->tree().module(blocks[static_cast<std::size_t>(i)]).path)->ac == Checkpointing::Full);
    QCOMPARE(doc->plan().findUnit(doc->tree().module(blocks[3]).path)->ac, Checkpointing::None);
    QCOMPARE(doc->undoStack()->count(), stepsBefore + 1);

    // A combo-box edit of one selected row sets the whole selection too.
    const QModelIndex cell = w->planTreeModel()->indexOfModule(blocks[0], PlanTreeModel::ParamDtypeColumn);
    QModelIndexList cells;
    for (const QModelIndex& row : tree->selectionModel()->selectedRows()) cells << row.siblingAtColumn(PlanTreeModel::ParamDtypeColumn);
    QVERIFY(w->planTreeModel()->setCells(cells, QStringLiteral("bf16")));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(doc->plan().findUnit(doc->tree().module(blocks[static_cast<std::size_t>(i)]).path)->mp.paramDtype, DType::BF16);
    QCOMPARE(cell.data(Qt::DisplayRole).toString(), QStringLiteral("bf16"));
}

void TestUnitEdit::everyBlockAUnitIsOneUndoStep()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    // Start from the root alone: remove every block unit in one edit.
    w->planTree()->selectAll();
    w->actions().removeUnits->trigger();
    QCOMPARE(doc->plan().units.size(), std::size_t(1));
    w->actions().makeBlocks->trigger();
    QCOMPARE(doc->plan().units.size(), doc->tree().blocks().size() + 1);
    doc->undoStack()->undo();
    QCOMPARE(doc->plan().units.size(), std::size_t(1));
}

QTEST_MAIN(TestUnitEdit)
#include "tst_gui_unit_edit.moc"
