// The System chart beside the memory chart: a past run's page draws, per
// rank, the system samples its ranks sent (read from a real run store):
// CPU utilisation, host RSS in a unit by its range, and the GPU's series
// offered only when a rank sent them.
#include "gui_test_support.hpp"
#include "../status_checks.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"
#include "models/system_series.hpp"
#include "session/past_run.hpp"
#include "views/live_run_view.hpp"
#include "views/rank_memory_chart.hpp"
#include "views/run_page.hpp"
#include "views/series_chart.hpp"
#include "views/system_chart.hpp"

#include "store/sqlite_run_store.hpp"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QComboBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::gui;

namespace {

// Run `uid` of `world` ranks, with a step per rank and `samples` system
// samples per rank two seconds apart; rank 0 a GPU's too when `gpu`.
qint64 writeRun(store::SqliteRunStore& s, const QString& uid, int world, int samples, bool gpu, qint64 rss)
{
    store::NewRun run;
    run.uid = uid;
    run.planJson = QStringLiteral("{}");
    run.backend = QStringLiteral("local");
    run.worldSize = world;
    run.createdAt = 1700000000.0;
    const qint64 id = s.createRun(run).value();
    for (int rank = 0; rank < world; ++rank) {
        store::MetricRow m;
        m.runId = id;
        m.m.rank = rank;
        m.m.step = 1;
        m.m.steps = 1;
        m.m.t = 1700000001.0;
        m.m.loss = 5.0;
        s.addStepMetrics(m);
        for (int i = 0; i < samples; ++i) {
            store::SystemSample x;
            x.runId = id;
            x.rank = rank;
            x.t = 1700000000.0 + 2.0 * i + 0.1 * rank;
            x.cpuUtil = 50.0 + 10.0 * rank + i;
            x.hostRss = rss + i * (1LL << 20);
            if (gpu && rank == 0) {
                x.gpuUtil = 90;
                x.gpuPowerW = 600.5;
                x.gpuTempC = 70;
                x.gpuSmClockMhz = 1980;
            }
            s.addSystemSample(x);
        }
    }
    return id;
}

} // namespace

class TestSystemChart : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;
    qint64 gpuRun_ = -1, cpuRun_ = -1, oldRun_ = -1;

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings();
        db_ = dir_.filePath(QStringLiteral("runs.sqlite"));
        QString err;
        auto sOpened = store::SqliteRunStore::open(db_);
        QVERIFY2(sOpened, sOpened.error().c_str());
        auto s = std::move(sOpened).value();
        gpuRun_ = writeRun(*s, QStringLiteral("gpu"), 2, 6, true, 3LL << 30);
        cpuRun_ = writeRun(*s, QStringLiteral("cpu"), 3, 4, false, 1536LL << 20); // 1.5 GiB: still MiB
        oldRun_ = writeRun(*s, QStringLiteral("old"), 2, 0, false, 0); // sent none (sampling off, or older)
        SB_VERIFY_OK(s->flush());
    }

    void aPastRunsPageDrawsEveryRanksSamples()
    {
        PastRun past;
        RunPage page;
        page.resize(1200, 800);
        page.show();
        connect(&past, &PastRun::loaded, &page, [&] { page.showRun(&past); });
        past.load(db_, gpuRun_);
        QTRY_COMPARE(page.runId(), gpuRun_);
        SystemChart* chart = page.runView()->systemChart();
        auto* tabs = qobject_cast<QTabWidget*>(chart->parentWidget()->parentWidget());
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(tabs->indexOf(chart)), QStringLiteral("System"));
        QVERIFY(tabs->indexOf(page.runView()->memoryChart()) >= 0); // beside the memory chart
        QVERIFY(!chart->controls()->isVisible()); // the quantity box: with its chart only
        tabs->setCurrentWidget(chart);
        QCOMPARE(tabs->cornerWidget(), chart->controls());
        QVERIFY(chart->controls()->isVisible());

        QCOMPARE(chart->lineCount(), 2); // a line per rank
        QCOMPARE(chart->quantity(), SystemChart::CpuUtil);
        chart->chart()->refreshNow();
        QCOMPARE(chart->chart()->drawnPoints(0), 6);
        QCOMPARE(chart->chart()->drawnPoints(1), 6);
        QVERIFY(chart->chart()->showsClock()); // against the time of day
        QCOMPARE(chart->chart()->chart()->series().at(1)->name(), QStringLiteral("rank 1"));
        // Rank 0 sent its GPU's counters: the box offers them (CPU, RSS and four).
        QCOMPARE(chart->quantityBox()->count(), 6);
        chart->setQuantity(SystemChart::GpuPower);
        chart->chart()->refreshNow();
        QCOMPARE(chart->lineCount(), 2);
        QCOMPARE(chart->chart()->drawnPoints(0), 6);
        QCOMPARE(chart->chart()->drawnPoints(1), 0); // rank 1 sent none
        // Host RSS of 3 GiB and more: the axis reads GiB.
        chart->setQuantity(SystemChart::HostRss);
        chart->chart()->refreshNow();
        QCOMPARE(chart->chart()->drawnPoints(0), 6);
        const QList<QAbstractAxis*> y = chart->chart()->chart()->axes(Qt::Vertical);
        QVERIFY(!y.isEmpty());
        QCOMPARE(y.front()->titleText(), QStringLiteral("GiB"));
        QVERIFY(chart->chart()->hasCsv());
        const QByteArray csv = chart->chart()->csv();
        QCOMPARE(csv.count('\n'), 1 + 12);
        QVERIFY2(csv.contains(",90,600.5,70,1980\n"), csv.constData());

        // Another run replaces it: three CPU ranks near 1.5 GiB, read in MiB as the
        // memory charts read that much (memoryAxisUnit), no GPU offered.
        past.load(db_, cpuRun_);
        QTRY_COMPARE(page.runId(), cpuRun_);
        QCOMPARE(chart->lineCount(), 3);
        QCOMPARE(chart->quantityBox()->count(), 2);
        QCOMPARE(chart->quantity(), SystemChart::HostRss);
        chart->chart()->refreshNow();
        QCOMPARE(chart->chart()->drawnPoints(2), 4);
        QCOMPARE(chart->chart()->chart()->axes(Qt::Vertical).front()->titleText(), QStringLiteral("MiB"));

        // A run without samples says so, with no lines.
        past.load(db_, oldRun_);
        QTRY_COMPARE(page.runId(), oldRun_);
        QCOMPARE(chart->lineCount(), 0);
        QVERIFY2(chart->chart()->chart()->title().contains(QStringLiteral("no samples")), qPrintable(chart->chart()->chart()->title()));
    }

    // Live: samples arriving one by one extend the lines; a new run clears them.
    void liveSamplesExtendTheLines()
    {
        LiveRunModel live;
        live.reset(2, 10, {});
        RunLogModel logs;
        LiveRunView view;
        view.setRun(&live, &logs, 2, 1, QString());
        SystemChart* chart = view.systemChart();
        QCOMPARE(chart->lineCount(), 0);
        for (int i = 0; i < 3; ++i)
            for (int rank = 0; rank < 2; ++rank) {
                store::SystemSample s;
                s.rank = rank;
                s.t = 1700000000.0 + i;
                s.cpuUtil = 100.0;
                s.hostRss = 64LL << 20;
                live.system()->add(s);
            }
        QCOMPARE(chart->lineCount(), 2);
        chart->chart()->refreshNow();
        QCOMPARE(chart->chart()->drawnPoints(1), 3);
        live.reset(2, 10, {});
        QCOMPARE(chart->lineCount(), 0);
        QVERIFY(live.system()->isEmpty());
    }
};

QTEST_MAIN(TestSystemChart)
#include "tst_gui_system.moc"
