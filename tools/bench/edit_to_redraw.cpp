// Edit-to-redraw time of the workbench: Llama-3 70B on 128 nodes x 8 GPUs
// (1024 ranks). Each edit goes the way a click does (model setData -> undo
// command -> document -> validation -> tree model), then the memory estimate
// is recomputed and both charts repaint; the clock stops after both charts'
// paint events have finished. Prints the median, p90 and maximum.
//
//   shardbench-gui-bench [--repeats N]      (offscreen unless QT_QPA_PLATFORM is set)
#include "document/plan_document.hpp"
#include "models/memory_model.hpp"
#include "models/plan_tree_model.hpp"
#include "views/memory_view.hpp"
#include "views/rank_chart.hpp"
#include "views/timeline_chart.hpp"
#include "window/file_controller.hpp"
#include "window/language_manager.hpp"
#include "window/main_window.hpp"

#include "estimate/estimate.hpp"
#include "plan/resolve.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

using namespace sb;
using namespace sb::gui;

namespace {

double ms(qint64 ns) { return static_cast<double>(ns) / 1e6; }

struct Stats {
    std::vector<double> edit, estimate, paint, total;
};

double percentile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
}

bool waitFor(const std::function<bool()>& done)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > 5000) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
    return true;
}

// One edit through `edit`, timed until both charts have repainted.
bool measure(MainWindow& w, const std::function<void()>& edit, Stats& s)
{
    RankChart* rank = w.memoryView()->rankChart();
    TimelineChart* timeline = w.memoryView()->timelineChart();
    const quint64 rankPaints = rank->paintCount();
    const quint64 timelinePaints = timeline->paintCount();
    QElapsedTimer t;
    t.start();
    edit();
    const qint64 edited = t.nsecsElapsed();
    if (!waitFor([&] { return w.memoryView()->shownRevision() == w.document()->revision(); })) return false;
    const qint64 estimated = t.nsecsElapsed();
    if (!waitFor([&] { return rank->paintCount() > rankPaints && timeline->paintCount() > timelinePaints; })) return false;
    const qint64 painted = t.nsecsElapsed();
    s.edit.push_back(ms(edited));
    s.estimate.push_back(ms(estimated - edited));
    s.paint.push_back(ms(painted - estimated));
    s.total.push_back(ms(painted));
    return true;
}

void report(const char* name, const Stats& s)
{
    std::printf("%-44s median %6.2f ms   p90 %6.2f ms   max %6.2f ms   (edit %.2f + estimate/update %.2f + paint %.2f, medians; n=%zu)\n",
                name, percentile(s.total, 0.5), percentile(s.total, 0.9), percentile(s.total, 1.0),
                percentile(s.edit, 0.5), percentile(s.estimate, 0.5), percentile(s.paint, 0.5), s.total.size());
}

} // namespace

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int repeats = 60;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
    QTemporaryDir settingsDir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());

    LanguageManager languages;
    MainWindow w(&languages);
    w.files()->setInteractive(false);
    Plan plan = defaultPlan(*presetConfig("llama3-70b"));
    plan.mesh.nodes = 128;
    plan.mesh.procsPerNode = 8;
    for (UnitPolicy& u : plan.units) {
        u.mp.paramDtype = DType::BF16;
        u.mp.reduceDtype = DType::F32;
    }
    w.document()->reset(plan);
    w.resize(1600, 1000);
    w.show();
    waitFor([&] { return w.memoryView()->shownRevision() == w.document()->revision(); });
    for (int i = 0; i < 20; ++i) QCoreApplication::processEvents();

    const PlanDocument& doc = *w.document();
    std::printf("Llama-3 70B, %d ranks (%d x %d), %zu units, %zu modules, %s\n", doc.plan().mesh.worldSize(),
                doc.plan().mesh.nodes, doc.plan().mesh.procsPerNode, doc.plan().units.size(), doc.tree().modules().size(),
                qPrintable(QGuiApplication::platformName()));

    // The estimate alone, as the floor of any redraw.
    std::vector<double> core;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        t.start();
        const Estimate e = estimateMemory(doc.plan(), doc.tree(), resolvePlan(doc.plan(), doc.tree()));
        core.push_back(ms(t.nsecsElapsed()));
    }
    std::printf("%-44s median %6.2f ms\n", "core estimateMemory (1024 ranks, timeline)", percentile(core, 0.5));

    PlanTreeModel* model = w.planTreeModel();
    const std::vector<int> blocks = doc.tree().blocks();
    Stats checkpoint;
    for (int i = 0; i < repeats; ++i) {
        const QModelIndex cell = model->indexOfModule(blocks[static_cast<std::size_t>(i % 80)], PlanTreeModel::CheckpointColumn);
        const bool on = cell.data(Qt::CheckStateRole).toInt() == Qt::Checked;
        if (!measure(w, [&] { model->setData(cell, on ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole); }, checkpoint))
            return 1;
    }
    report("toggle activation checkpointing of a block", checkpoint);

    Stats units;
    for (int i = 0; i < repeats; ++i) {
        const QModelIndex cell = model->indexOfModule(blocks[static_cast<std::size_t>(i % 80)], PlanTreeModel::UnitColumn);
        const bool on = cell.data(Qt::CheckStateRole).toInt() == Qt::Checked;
        if (!measure(w, [&] { model->setData(cell, on ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole); }, units))
            return 1;
    }
    report("make a block a unit / not a unit", units);

    Stats undo;
    for (int i = 0; i < repeats; ++i)
        if (!measure(w, [&] { w.document()->undoStack()->undo(); }, undo)) return 1;
    report("undo", undo);
    return 0;
}
