// The workbench laid out by task (issue 39). On an offscreen screen of
// 1366x768, in a window of that screen and of a 1920x1080 one: the Setup and
// Problems docks belong to the Plan tab (a dock hidden there stays hidden);
// Launch, with its target and "Keep running", is on screen without scrolling
// on every tab and says what it starts (a run, a detached run, the restore of
// the checkpoint chosen); every chart shown has a plot of at
// least 300x160 px with no tick label or axis title cut short, keeps its
// labels on a log scale and shows no made-up ticks while empty; the window
// with its frame and its status bar lie on the screen; the memory verdict
// does not change the panel's width; messages do not push the launch form.
#include "gui_test_support.hpp"

#include "models/checkpoints_model.hpp"
#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"
#include "views/chart_view_base.hpp"
#include "views/checkpoints_view.hpp"
#include "views/going_runs_bar.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/log_panes.hpp"
#include "views/memory_view.hpp"
#include "views/rank_memory_chart.hpp"
#include "views/series_chart.hpp"
#include "window/language_manager.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace sb::gui;

namespace {

QList<QSize> windowSizes() { return {QSize(1366, 738), QSize(1920, 1050)}; } // each screen less a title bar

// The visible text of a chart's axes (tick labels and titles): not the
// chart's title, not the legend.
QList<QGraphicsTextItem*> axisTexts(ChartViewBase* view)
{
    QList<QGraphicsTextItem*> out;
    QChart* chart = view->chart();
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || text->toPlainText().isEmpty() || text->parentItem() == chart) continue;
        bool legend = false;
        for (QGraphicsItem* p = text->parentItem(); p && !legend; p = p->parentItem()) legend = p == chart->legend();
        if (!legend) out << text;
    }
    return out;
}

// The chart's title as shown: the whole of chart()->title(), or the start of
// it that QtCharts kept, with an ellipsis.
QString shownTitle(ChartViewBase* view)
{
    const QString title = view->chart()->title();
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || text->parentItem() != view->chart()) continue;
        QString kept = text->toPlainText();
        if (kept.endsWith(QChar(0x2026))) kept.chop(1);
        else if (kept.endsWith(QLatin1String("..."))) kept.chop(3);
        if (!kept.isEmpty() && title.startsWith(kept)) return text->toPlainText();
    }
    return {};
}

// QtCharts cuts a label that does not fit short with an ellipsis.
QStringList elidedTexts(ChartViewBase* view)
{
    QStringList out;
    for (QGraphicsTextItem* t : axisTexts(view))
        if (const QString s = t->toPlainText(); s.endsWith(QLatin1String("...")) || s.endsWith(QChar(0x2026))) out << s;
    return out;
}

// The axes' labels that read as numbers; `left`: only those left of the plot (the value axis).
int numericLabels(ChartViewBase* view, bool left = false)
{
    int n = 0;
    const double plotLeft = view->chart()->plotArea().left();
    for (QGraphicsTextItem* t : axisTexts(view)) {
        bool ok = false;
        QLocale().toDouble(t->toPlainText(), &ok);
        n += ok && (!left || t->sceneBoundingRect().right() <= plotLeft + 1);
    }
    return n;
}

// A run of 300 steps with every chart's values, as a core reports them.
void fillRun(LiveRunModel& live)
{
    live.reset(4, 1000, {30'000'000'000, 30'000'000'000, 30'000'000'000, 30'000'000'000});
    for (int s = 1; s <= 300; ++s)
        for (int rank = 0; rank < 4; ++rank) {
            sb::protocol::StepMetrics m;
            m.rank = rank;
            m.step = s;
            m.loss = 10.8 * std::exp(-s / 90.0) + 2.4 + 0.05 * std::sin(s);
            m.tokensPerS = 26'600 + 400 * std::sin(s / 7.0);
            m.stepMs = 480 + 20 * std::cos(s / 5.0);
            m.forwardMs = 150;
            m.backwardMs = 280;
            m.optimizerMs = 30;
            m.commExposedMs = 12;
            m.memPeak = 27'900'000'000 + rank * 1'000'000;
            m.memCurrent = 21'000'000'000;
            m.t = 1'700'000'000 + s * 0.48;
            live.log(m);
        }
}

// A workbench of `size` following the run of fillRun() (4 ranks).
struct LiveWorkbench {
    explicit LiveWorkbench(QSize size)
    {
        fillRun(live);
        w->resize(size);
        view()->setRun(&live, &logs, 4, 1, QStringLiteral("layout"));
    }
    ~LiveWorkbench() { view()->setRun(nullptr, nullptr, 0, -1, QString()); }
    LiveRunView* view() const { return w->areas()->liveView(); }

    LiveRunModel live;
    RunLogModel logs;
    test::Workbench w;
};

// Every chart on the current tab that a person sees.
QList<ChartViewBase*> shownCharts(QWidget* tab, QWidget* window)
{
    QList<ChartViewBase*> out;
    for (ChartViewBase* c : tab->findChildren<ChartViewBase*>())
        if (c->isVisibleTo(window)) out << c;
    return out;
}

QString chartName(ChartViewBase* c) { return c->objectName().isEmpty() ? QLatin1String(c->metaObject()->className()) : c->objectName(); }

// The charts shown on `tab` whose plot is under 300x160 px or with a label cut short, each with why.
QStringList unreadable(const QString& tabName, QWidget* tab, QWidget* window, int* checked)
{
    QStringList bad;
    for (ChartViewBase* c : shownCharts(tab, window)) {
        ++*checked;
        const QString where = tabName + QStringLiteral(": ") + chartName(c);
        const QRectF plot = c->chart()->plotArea();
        if (plot.width() < 300 || plot.height() < 160) bad << QStringLiteral("%1: plot %2x%3").arg(where).arg(plot.width()).arg(plot.height());
        if (const QStringList cut = elidedTexts(c); !cut.isEmpty()) bad << where + QStringLiteral(": ") + cut.join(u' ');
    }
    return bad;
}

// On screen without scrolling: the whole widget inside every parent, the window included.
bool wholeOnScreen(QWidget* w, QWidget* window)
{
    if (!w->isVisibleTo(window)) return false;
    QRect seen(w->mapTo(window, QPoint(0, 0)), w->size());
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        seen &= QRect(p == window ? QPoint(0, 0) : p->mapTo(window, QPoint(0, 0)), p->size());
        if (p == window) break;
    }
    return seen.size() == w->size();
}

void showTab(QTabWidget* tabs, int i)
{
    tabs->setCurrentIndex(i);
    QCoreApplication::processEvents();
    // The charts' coalesced refreshes, and the axes fitted to the layouts they cause (a loaded machine is slower).
    QTest::qWait(60);
    const QList<SeriesChart*> charts = tabs->window()->findChildren<SeriesChart*>();
    if (!QTest::qWaitFor([&] { return std::none_of(charts.begin(), charts.end(), [](SeriesChart* c) { return c->isRefreshPending(); }); }, 2000))
        qWarning("a chart still had a refresh pending after 2 s");
    QCoreApplication::processEvents();
}

// The launch bar of every tab: its Launch button, "Keep running" and target.
struct Bar {
    explicit Bar(QWidget* window)
        : launch(window->findChild<QPushButton*>(QStringLiteral("launchBarLaunch"))),
          keepRunning(window->findChild<QCheckBox*>(QStringLiteral("launchBarKeepRunning"))),
          target(window->findChild<QPushButton*>(QStringLiteral("launchBarTarget")))
    {
    }
    bool found() const { return launch && keepRunning && target; }
    QPushButton* launch;
    QCheckBox* keepRunning;
    QPushButton* target;
};

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }

    void docksBelongToThePlanTab()
    {
        {
            test::Workbench w;
            QTabWidget* tabs = w->areaTabs();
            for (int i = 1; i < tabs->count(); ++i) {
                showTab(tabs, i);
                QVERIFY2(!w->setupDock()->isVisible() && !w->problemsDock()->isVisible(), qPrintable(tabs->tabText(i)));
                QVERIFY(!w->setupDock()->toggleViewAction()->isEnabled());
            }
            showTab(tabs, 0);
            QVERIFY(w->setupDock()->isVisible());
            QVERIFY(w->problemsDock()->isVisible());
            // Hidden on the Plan tab with the View menu: hidden there from now on.
            QAction* problems = w->problemsDock()->toggleViewAction();
            QVERIFY(problems->isEnabled());
            problems->trigger();
            QVERIFY(!w->problemsDock()->isVisible());
            showTab(tabs, 2);
            showTab(tabs, 0);
            QVERIFY(!w->problemsDock()->isVisible());
            QVERIFY(w->setupDock()->isVisible());
            // Closed on another tab: the choice is saved as made on the Plan tab.
            showTab(tabs, 3);
            QVERIFY(w->close());
        }
        test::Workbench again;
        QVERIFY(again->setupDock()->isVisible());
        QVERIFY(!again->problemsDock()->isVisible());
        again->problemsDock()->toggleViewAction()->trigger();
        QVERIFY(again->problemsDock()->isVisible());
        QVERIFY(again->close());
    }

    void launchIsOneClickAway_data()
    {
        QTest::addColumn<QSize>("size");
        for (const QSize& s : windowSizes()) QTest::newRow(qPrintable(QStringLiteral("%1x%2").arg(s.width()).arg(s.height()))) << s;
    }
    void launchIsOneClickAway()
    {
        QFETCH(QSize, size);
        test::Workbench w;
        w->resize(size);
        const Bar bar(w.window.get());
        QVERIFY(bar.found());
        LaunchPanel* panel = w->areas()->launchPanel();
        QTabWidget* tabs = w->areaTabs();
        for (int i = 0; i < tabs->count(); ++i) {
            showTab(tabs, i);
            for (QWidget* c : std::initializer_list<QWidget*>{bar.launch, bar.keepRunning, bar.target})
                QVERIFY2(wholeOnScreen(c, w.window.get()), qPrintable(tabs->tabText(i) + QStringLiteral(": ") + c->objectName()));
            QVERIFY(bar.launch->isEnabled());
        }
        // The Run area's own launch settings are whole, not in a strip that scrolls.
        showTab(tabs, tabs->indexOf(w->areas()->runArea()));
        for (QWidget* c : std::initializer_list<QWidget*>{panel->launchButton(), panel->nameEdit(), panel->detachBox(), panel->checkButton()})
            QVERIFY2(wholeOnScreen(c, w.window.get()), qPrintable(c->objectName()));
        // It says what it starts, and follows "Keep running" both ways.
        QCOMPARE(bar.launch->text(), QStringLiteral("Launch run"));
        QVERIFY(bar.target->text().contains(QStringLiteral("this machine")));
        panel->detachBox()->setChecked(true);
        QVERIFY(bar.keepRunning->isChecked());
        QCOMPARE(bar.launch->text(), QStringLiteral("Launch detached"));
        bar.keepRunning->setChecked(false);
        QVERIFY(!panel->detachBox()->isChecked());
        QCOMPARE(bar.launch->text(), QStringLiteral("Launch run"));
    }

    void theBarRestoresTheChosenCheckpoint()
    {
        test::Workbench w;
        const Bar bar(w.window.get());
        QVERIFY(bar.found());
        QTabWidget* tabs = w->areaTabs();
        showTab(tabs, tabs->indexOf(w->areas()->checkpointsArea()));
        sb::app::CheckpointEntry e;
        e.step = 40;
        e.path = QStringLiteral("/tmp/run-7/checkpoints/step-40");
        e.kind = QStringLiteral("sharded");
        w->areas()->checkpointsModel()->setCheckpoints(7, {e});
        w->areas()->checkpointsView()->selectRow(0);
        QCOMPARE(bar.launch->text(), QStringLiteral("Restore run 7 at step 40…"));
        // Elsewhere it launches the open plan again.
        showTab(tabs, tabs->indexOf(w->areas()->runsArea()));
        QCOMPARE(bar.launch->text(), QStringLiteral("Launch run"));
    }

    void theBarLaunchesAsTheRunAreaDoes()
    {
        test::Workbench w;
        const Bar bar(w.window.get());
        QVERIFY(bar.found());
        w->areaTabs()->setCurrentIndex(0);
        RunController* runs = w->areas()->runs();
        QSignalSpy states(runs, &RunController::stateChanged);
        bar.launch->click();
        QVERIFY(!states.isEmpty());
        QCOMPARE(states.first().first().value<RunController::State>(), RunController::State::Checking);
        QCOMPARE(w->areaTabs()->currentWidget(), w->areas()->runArea()); // where its checks and its run show
        QVERIFY(!bar.launch->isEnabled());
        runs->stop();
        QVERIFY(QTest::qWaitFor([&] { return runs->state() == RunController::State::Idle; }, 10000));
        QVERIFY(bar.launch->isEnabled());
    }

    void chartsAreReadable_data() { launchIsOneClickAway_data(); }
    void chartsAreReadable()
    {
        QFETCH(QSize, size);
        LiveWorkbench live(size);
        test::Workbench& w = live.w;
        QTabWidget* tabs = w->areaTabs();
        int checked = 0;
        QStringList bad;
        for (int i = 0; i < tabs->count(); ++i) {
            showTab(tabs, i);
            bad += unreadable(tabs->tabText(i), tabs->currentWidget(), w.window.get(), &checked);
        }
        // The plan's second chart, in the memory view's other tab.
        showTab(tabs, 0);
        if (auto* memoryTabs = w->memoryView()->findChild<QTabWidget*>(QStringLiteral("memoryCharts"))) {
            memoryTabs->setCurrentIndex(1);
            QTest::qWait(60);
            bad += unreadable(tabs->tabText(0), tabs->currentWidget(), w.window.get(), &checked);
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        QVERIFY(checked >= 6); // the plan's two, the run's four
        // A log scale keeps its labels, whole.
        showTab(tabs, tabs->indexOf(w->areas()->runArea()));
        SeriesChart* loss = w->areas()->liveView()->lossChart();
        QVERIFY(numericLabels(loss, true) >= 3);
        loss->setLogScale(true); // its values span 2.4 to 13: the decades 1, 10 and 100
        QTest::qWait(60);
        QVERIFY2(numericLabels(loss, true) >= 2, qPrintable(QStringLiteral("%1 labels").arg(numericLabels(loss, true))));
        QVERIFY2(elidedTexts(loss).isEmpty(), qPrintable(elidedTexts(loss).join(u' ')));
    }

    // Below the charts, the log of a live run shows lines without Enlarge:
    // two on a laptop, where the charts keep their readable minimum, and a
    // quarter of the height on a large screen (before, the log kept only
    // its filter and tabs at either size). The charts' help is one line.
    void theLogShowsLinesBelowTheCharts_data() { launchIsOneClickAway_data(); }
    void theLogShowsLinesBelowTheCharts()
    {
        QFETCH(QSize, size);
        LiveWorkbench live(size);
        LiveRunView* view = live.view();
        QTabWidget* tabs = live.w->areaTabs();
        showTab(tabs, tabs->indexOf(live.w->areas()->runArea()));
        auto* pane = qobject_cast<QAbstractScrollArea*>(view->logs()->tabs()->currentWidget());
        QVERIFY(pane);
        const int lines = pane->viewport()->height() / pane->fontMetrics().lineSpacing();
        QVERIFY2(lines >= (size.height() > 1000 ? 10 : 2), qPrintable(QStringLiteral("%1 log lines in sight (%2 px)").arg(lines).arg(pane->viewport()->height())));
        // The filter in the tabs' corner is as tall as it asks to be.
        QLineEdit* filter = view->logs()->filterEdit();
        QVERIFY2(filter->height() >= filter->minimumSizeHint().height(), qPrintable(QString::number(filter->height())));
        auto* hint = view->findChild<QLabel*>(QStringLiteral("chartHelp"));
        QVERIFY(hint);
        QVERIFY(hint->height() < 2 * hint->fontMetrics().lineSpacing());
        QVERIFY(hint->toolTip().contains(QStringLiteral("double-click")));
        // The memory chart's title says both peaks whole, in its short form on a laptop.
        const QString title = shownTitle(view->memoryChart());
        QVERIFY2(title.contains(QStringLiteral("estimated (")) && title.endsWith(QStringLiteral(" %)")), qPrintable(title));
    }

    void emptyChartsShowNoTicks()
    {
        test::Workbench w;
        showTab(w->areaTabs(), w->areaTabs()->indexOf(w->areas()->runArea()));
        for (SeriesChart* c : w->areas()->liveView()->seriesCharts()) {
            QCOMPARE(numericLabels(c), 0); // not 0 0 0 1 1 1
        }
    }

    void theStatusBarIsOnScreen()
    {
        QSettings().remove(QStringLiteral("window"));
        LanguageManager languages;
        MainWindow first(&languages); // the first start: its default size fitted to the screen
        first.show();
        QVERIFY(QTest::qWaitForWindowExposed(&first));
        QCoreApplication::processEvents();
        const QRect available = first.screen()->availableGeometry();
        QVERIFY2(available.contains(first.frameGeometry()),
                 qPrintable(QStringLiteral("frame %1,%2 %3x%4").arg(first.frameGeometry().x()).arg(first.frameGeometry().y())
                                .arg(first.frameGeometry().width()).arg(first.frameGeometry().height())));
        QStatusBar* status = first.statusBar();
        QVERIFY(status->isVisible());
        QVERIFY(available.contains(QRect(status->mapToGlobal(QPoint(0, 0)), status->size())));
    }

    void theVerdictKeepsThePanelsWidth()
    {
        test::Workbench w;
        w->resize(1366, 738);
        QCoreApplication::processEvents();
        MemoryView* memory = w->memoryView();
        const int width = memory->width();
        const int hint = memory->minimumSizeHint().width();
        // A plan far over its device: the longer, red verdict.
        sb::TrainingConfig t = w->document()->plan().training;
        t.microBatch = 4096;
        editTraining(*w->document(), t);
        QVERIFY(test::waitForMemoryView(*w.window));
        QVERIFY(memory->verdictText().startsWith(QStringLiteral("Does not fit")));
        QCoreApplication::processEvents();
        QCOMPARE(memory->width(), width);
        QCOMPARE(memory->minimumSizeHint().width(), hint);
    }

    void messagesDoNotPushTheLaunchForm()
    {
        test::Workbench w;
        w->resize(1366, 738);
        showTab(w->areaTabs(), w->areaTabs()->indexOf(w->areas()->runArea()));
        LaunchPanel* panel = w->areas()->launchPanel();
        const QPoint name = panel->nameEdit()->mapTo(w.window.get(), QPoint(0, 0));
        const QPoint launch = panel->launchButton()->mapTo(w.window.get(), QPoint(0, 0));
        panel->setSubject(QStringLiteral("Restoring run 3 from /tmp/run-3/checkpoints/step-40"));
        panel->setMessage(QStringLiteral("Run 3 was not restored from /tmp/run-3/checkpoints/step-40.\nA run is in progress."), true);
        sb::store::RunRow going;
        going.id = 9;
        going.name = QStringLiteral("still going");
        panel->goingRunsBar()->setRuns({going});
        QCoreApplication::processEvents();
        QCOMPARE(panel->nameEdit()->mapTo(w.window.get(), QPoint(0, 0)), name);
        QCOMPARE(panel->launchButton()->mapTo(w.window.get(), QPoint(0, 0)), launch);
        QVERIFY(panel->subjectLabel()->isVisible());
    }
};

int main(int argc, char** argv)
{
    return sb::gui::test::runOnLaptopScreen(argc, argv, [](int c, char** v) {
        TestLayout test;
        return QTest::qExec(&test, c, v);
    });
}

#include "tst_gui_layout.moc"
