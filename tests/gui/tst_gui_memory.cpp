// The memory view at scale: 1024 ranks grouped into a few bars, an
// unmistakable over-capacity verdict with its margin, the largest micro-batch.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "models/memory_model.hpp"
#include "models/rank_groups.hpp"
#include "views/memory_view.hpp"
#include "views/rank_chart.hpp"
#include "views/timeline_chart.hpp"

#include "estimate/estimate.hpp"

#include <QPushButton>
#include <QChart>
#include <QTest>
#include <QValueAxis>

using namespace sb;
using namespace sb::gui;

class TestMemory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void thousandRanksInAFewBars();
    void overCapacityShowsTheMargin();
    void aSmallPlansBarsAreVisible();
    void largestMicroBatchMatchesTheCore();
};

static Plan llama70b(int nodes)
{
    Plan plan = defaultPlan(*presetConfig("llama3-70b"));
    plan.mesh.nodes = nodes;
    for (UnitPolicy& u : plan.units) {
        u.mp.paramDtype = DType::BF16;
        u.mp.reduceDtype = DType::F32;
    }
    return plan;
}

void TestMemory::thousandRanksInAFewBars()
{
    test::Workbench w;
    w->document()->reset(llama70b(128));
    QVERIFY(test::waitForMemoryView(*w.window));
    const Estimate& e = w->memoryModel()->estimate();
    QCOMPARE(e.ranks.size(), std::size_t(1024));
    const auto& groups = w->memoryModel()->groups();
    int covered = 0;
    for (const RankGroup& g : groups) {
        covered += g.count;
        for (const auto& [first, last] : g.ranges)
            for (int r = first; r <= last; ++r)
                QCOMPARE(e.ranks[static_cast<std::size_t>(r)].atPeak.bytes, e.ranks[static_cast<std::size_t>(g.rank)].atPeak.bytes);
    }
    QCOMPARE(covered, 1024);
    QVERIFY(groups.size() <= 8);
    QCOMPARE(w->memoryView()->rankChart()->barLabels().size(), static_cast<int>(groups.size()));
    QCOMPARE(w->memoryView()->timelineChart()->pointCount(), static_cast<int>(e.timeline.size()));
}

void TestMemory::overCapacityShowsTheMargin()
{
    test::Workbench w;
    Plan plan = llama70b(1);
    plan.training.microBatch = 4;
    plan.training.seqLen = 8192;
    w->document()->reset(plan);
    QVERIFY(test::waitForMemoryView(*w.window));
    const Estimate& e = w->memoryModel()->estimate();
    QVERIFY(!e.fits());
    const QString verdict = w->memoryView()->verdictText();
    const QString margin = QLocale().toString(static_cast<double>(e.peakBytes() - e.capacityBytes) / static_cast<double>(kGiB), 'f', 2);
    QVERIFY2(verdict.startsWith(QStringLiteral("Does not fit")) && verdict.contains(margin + QStringLiteral(" GiB more")),
             qPrintable(verdict));
    QVERIFY(w->memoryView()->rankChart()->overCapacity());
    QVERIFY(w->memoryView()->rankChart()->chart()->title().contains(QStringLiteral("OVER CAPACITY by ") + margin));
}

// The tutorial plan peaks at a few hundred MiB on an 80 GB device: the axis
// follows its bars (they were a sliver under the capacity line) and the
// capacity line joins when the peak comes near it.
void TestMemory::aSmallPlansBarsAreVisible()
{
    test::Workbench w;
    QVERIFY(test::waitForMemoryView(*w.window));
    const Estimate& e = w->memoryModel()->estimate();
    const double peak = static_cast<double>(e.peakBytes()) / static_cast<double>(kGiB);
    const double capacity = static_cast<double>(e.capacityBytes) / static_cast<double>(kGiB);
    QVERIFY2(peak < capacity / 10, qPrintable(QString::number(peak)));
    RankChart* chart = w->memoryView()->rankChart();
    QVERIFY(!chart->capacityShown());
    QVERIFY2(chart->axisTopGiB() >= peak && chart->axisTopGiB() <= peak * 2, qPrintable(QString::number(chart->axisTopGiB())));
    // Its ticks read as distinct numbers of GiB (they read 0, 0, 0, 1 in whole GiB).
    for (QChart* c : {chart->chart(), static_cast<QChart*>(w->memoryView()->timelineChart()->chart())}) {
        auto* y = qobject_cast<QValueAxis*>(c->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QStringList labels = test::tickLabels(y);
        QVERIFY2(labels.size() >= 3 && labels.removeDuplicates() == 0, qPrintable(labels.join(QLatin1Char(' '))));
    }

    Plan plan = llama70b(1);
    plan.training.microBatch = 4;
    plan.training.seqLen = 8192;
    w->document()->reset(plan);
    QVERIFY(test::waitForMemoryView(*w.window));
    QVERIFY(chart->capacityShown());
    QVERIFY(chart->axisTopGiB() >= static_cast<double>(w->memoryModel()->estimate().capacityBytes) / static_cast<double>(kGiB));
}

void TestMemory::largestMicroBatchMatchesTheCore()
{
    test::Workbench w;
    Plan plan = defaultPlan(*presetConfig("llama3-8b"));
    w->document()->reset(plan);
    const int expected = largestFittingMicroBatch(w->document()->plan(), w->document()->tree());
    QTRY_COMPARE(w->memoryModel()->largestMicroBatch(), expected);
    QVERIFY(w->memoryView()->largestBatchText().contains(QString::number(expected)));
    auto* use = w->memoryView()->findChild<QPushButton*>(QStringLiteral("useLargestBatch"));
    QVERIFY(use);
    if (expected > 1) {
        QVERIFY(use->isEnabled());
        QTest::mouseClick(use, Qt::LeftButton);
        QCOMPARE(w->document()->plan().training.microBatch, expected);
    }
}

QTEST_MAIN(TestMemory)
#include "tst_gui_memory.moc"
