#include "screenshot_runner.hpp"

#include "run_screenshots.hpp"
#include "screenshot_support.hpp"

#include "window/file_controller.hpp"
#include "window/language_manager.hpp"
#include "window/main_window.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "models/plan_tree_model.hpp"
#include "views/memory_view.hpp"
#include "views/plan_tree_view.hpp"
#include "views/problems_panel.hpp"
#include "models/problems_model.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QPixmap>
#include <QTableView>
#include <QTextStream>
#include <QUndoStack>

namespace sb::gui {

namespace {

Plan demoPlan(const char* preset, int nodes, int microBatch, int seqLen)
{
    Plan plan = defaultPlan(*presetConfig(preset));
    plan.name = preset;
    plan.mesh.nodes = nodes;
    plan.training.microBatch = microBatch;
    plan.training.seqLen = seqLen;
    for (UnitPolicy& u : plan.units) {
        u.mp.paramDtype = DType::BF16;
        u.mp.reduceDtype = DType::F32;
    }
    return plan;
}

void selectBlocks(PlanTreeView* tree, const ModuleTree& t, std::initializer_list<int> blocks)
{
    const std::vector<int> all = t.blocks();
    tree->selectionModel()->clearSelection();
    for (int b : blocks) {
        const QModelIndex i = tree->planModel()->indexOfModule(all[static_cast<std::size_t>(b)]);
        tree->selectionModel()->select(i, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

} // namespace

int runScreenshots(MainWindow& w, const QString& directory, const QString& sourceDirectory)
{
    QDir().mkpath(directory);
    Shooter shots(directory);
    w.setInteractive(false);
    w.resize(1600, 1000);
    w.show();
    PlanDocument* doc = w.document();

    // A plan that fits: Llama-3 8B on one node of eight H100s.
    doc->reset(demoPlan("llama3-8b", 1, 2, 4096));
    w.planTree()->expand(w.planTreeModel()->indexOfModule(doc->tree().blocks().front()));
    selectBlocks(w.planTree(), doc->tree(), {2, 3, 4});
    editPolicy(*doc, w.planTree()->selectedModules(), PolicyField::Checkpointing, true);
    shots.shoot(&w, QStringLiteral("workbench"));
    shots.shootAtScreenSizes(&w, QStringLiteral("workbench"));
    shots.shoot(w.planTree(), QStringLiteral("plan-tree"));
    shots.shoot(w.memoryView(), QStringLiteral("memory"));
    shots.shoot(w.setupDock(), QStringLiteral("setup"));

    // A problem: k = 3 does not divide the shard group of 8; clicking it selects the row.
    const int block5 = doc->tree().blocks()[5];
    editPolicy(*doc, {block5}, PolicyField::Reshard, QStringLiteral("3"));
    settle();
    w.problemsPanel()->table()->selectRow(0);
    w.showProblem(w.problemsPanel()->problemsModel()->location(0));
    shots.shoot(&w, QStringLiteral("problem"));
    doc->undoStack()->undo();

    // Over capacity: Llama-3 70B on two nodes.
    doc->reset(demoPlan("llama3-70b", 2, 2, 4096));
    shots.shoot(w.memoryView(), QStringLiteral("over-capacity"));

    // Llama-3 70B on 128 nodes x 8: 1024 ranks in a few groups of identical ranks.
    doc->reset(demoPlan("llama3-70b", 128, 1, 4096));
    shots.shoot(w.memoryView(), QStringLiteral("llama3-70b-1024-ranks"));

    // An imported module tree.
    if (w.files()->importModuleTreeFile(QDir(sourceDirectory).filePath(QStringLiteral("examples/module_tree_small.json")))) {
        w.planTree()->expandAll();
        shots.shoot(w.planTree(), QStringLiteral("imported-tree"));
    }

    // The same window in German and in Chinese, at both sizes.
    doc->reset(demoPlan("llama3-8b", 1, 2, 4096));
    shots.shootTranslated(w, QStringLiteral("workbench"));

    // Part 2: real runs of the training core, launched, compared and restored.
    runRunScreenshots(w, shots);
    w.close();
    return shots.ok() ? 0 : 1;
}

} // namespace sb::gui
