// Making a module a unit changes the estimate shown; undo and redo (Ctrl+Z,
// Ctrl+Shift+Z) restore it; edits on a multi-selection apply to every row;
// the module names stay in sight while the policy columns scroll sideways.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "models/memory_model.hpp"
#include "models/plan_tree_model.hpp"
#include "views/memory_view.hpp"
#include "views/plan_tree_view.hpp"

#include "estimate/estimate.hpp"

#include <QAction>
#include <QScrollBar>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace sb;
using namespace sb::gui;

class TestUnitEdit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void makeUnitChangesEstimateAndUndoRedo();
    void multiSelectionEditsEveryRow();
    void everyBlockAUnitIsOneUndoStep();
    void namesStayInSightWhileThePoliciesScroll();
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

// Scrolled to the last policy column, the left edge of a row still shows its
// module's name (the issue: scrolling right hid the names of the rows being
// edited), lined up with its row; a click there selects that module, a
// Ctrl+click adds one, and a block closed in the tree closes beside it.
void TestUnitEdit::namesStayInSightWhileThePoliciesScroll()
{
    test::Workbench w;
    QVERIFY(QTest::qWaitForWindowActive(w.window.get()));
    PlanTreeView* tree = w->planTree();
    PlanTreeModel* model = w->planTreeModel();
    QScrollBar* sideways = tree->horizontalScrollBar();
    sideways->setValue(sideways->maximum());
    QVERIFY2(sideways->value() > tree->columnWidth(PlanTreeModel::NameColumn), "the tree is wide enough to hide its names");
    const int first = test::moduleIndex(*w.window, "layers.0");
    const int second = test::moduleIndex(*w.window, "output");
    QVERIFY(first > 0 && second > 0);

    // The left end of a module's row (in the tree's viewport: the end of the
    // name column's width, past any branch), what sits there, and which cell that shows.
    auto leftOf = [&](int module) {
        return QPoint(tree->columnWidth(PlanTreeModel::NameColumn) - 10, tree->visualRect(model->indexOfModule(module)).center().y());
    };
    auto cellAtLeft = [&](int module) -> std::pair<QWidget*, QModelIndex> {
        const QPoint global = tree->viewport()->mapToGlobal(leftOf(module));
        QWidget* hit = tree->childAt(tree->mapFromGlobal(global));
        auto* view = hit ? qobject_cast<QAbstractItemView*>(hit->parentWidget()) : nullptr;
        if (!view) return {hit, {}};
        return {hit, view->indexAt(hit->mapFromGlobal(global))};
    };
    for (int module : {first, second}) {
        QVERIFY(tree->visualRect(model->indexOfModule(module)).right() < 0); // the tree's own name cell is out of sight
        const auto [hit, shown] = cellAtLeft(module);
        QCOMPARE(shown.column(), int(PlanTreeModel::NameColumn));
        QCOMPARE(model->moduleOf(shown), module);
    }

    QWidget* hit = cellAtLeft(first).first;
    QTest::mouseClick(hit, Qt::LeftButton, {}, hit->mapFromGlobal(tree->viewport()->mapToGlobal(leftOf(first))));
    QCOMPARE(tree->selectedModules(), std::vector<int>{first});
    QCOMPARE(model->moduleOf(tree->currentIndex()), first);
    QTest::mouseClick(hit, Qt::LeftButton, Qt::ControlModifier, hit->mapFromGlobal(tree->viewport()->mapToGlobal(leftOf(second))));
    std::vector<int> both = tree->selectedModules();
    std::sort(both.begin(), both.end());
    QCOMPARE(both, (std::vector<int>{std::min(first, second), std::max(first, second)}));
    QCOMPARE(sideways->value(), sideways->maximum()); // selecting by name does not scroll the policies away

    // Closing the blocks' container moves "output" up on both sides alike.
    const QModelIndex container = model->indexOfModule(w->document()->tree().module(first).parent);
    tree->collapse(container);
    QVERIFY(!tree->isExpanded(container));
    QCOMPARE(cellAtLeft(second).second, model->indexOfModule(second));
}
