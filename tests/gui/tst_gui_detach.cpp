// Detached runs from the workbench, end to end with the real core and
// shardbench-supervise: a run launched detached from the Run area keeps
// training after the workbench quits; a new workbench says in the Run area
// that it was going and offers to attach, lists it as "running on the
// cluster — not attached", and Attach draws its whole backlog (every step
// from the first, no gap, no duplicate) before following it live; Detach
// leaves it running; Stop from the workbench ends it where it runs; and the
// same through sbatch on the launcher suites' one-node Slurm cluster.
#include "../safe_signal.hpp"
#include "gui_test_support.hpp"

#include "history/store_access.hpp"
#include "models/live_run_model.hpp"
#include "models/runs_model.hpp"
#include "session/attached_run.hpp"
#include "settings/run_settings.hpp"
#include "views/going_runs_bar.hpp"
#include "views/launch_panel.hpp"
#include "views/live_run_view.hpp"
#include "views/log_panes.hpp"
#include "views/runs_view.hpp"
#include "views/series_chart.hpp"
#include "views/target_chooser.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"
#include "window/runs_controller.hpp"

#include "slurm_test_cluster.hpp"
#include "store/run_reader.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

using namespace sb;
using namespace sb::gui;

class TestDetach : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void runOutlivesTheWorkbenchAndAttachDrawsTheBacklog();
    void detachLeavesTheRunGoingAndStopEndsIt();
    void refreshReconcilesAVanishedSupervisor();
    void slurmRunOutlivesTheWorkbench();

private:
    RunAreas* areas() const { return w_->window->areas(); }
    void startWorkbench();
    qint64 launchDetached(const QString& name);
    // Launched detached, followed for a few steps, then Detach pressed: the run, or -1.
    qint64 launchAndDetach(const QString& name);
    bool attachFromRuns(qint64 run);
    QJsonObject state(qint64 run) const;
    bool supervisorAlive(qint64 run) const;
    int stepsInRunDir(qint64 run) const; // rank 0's step events, every attempt
    QString runDir(qint64 run) const { return runDirs_.value(run); }
    int storedRank0Steps(qint64 run, bool* unique) const;

    QTemporaryDir tmp_;
    std::unique_ptr<gui::test::Workbench> w_;
    QHash<qint64, QString> runDirs_; // where each run lives
};

void TestDetach::initTestCase()
{
    gui::test::isolateSettings();
    QVERIFY(tmp_.isValid());
    gui::test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
    // Long enough to quit and start the workbench while it trains; stopped below.
    QCOMPARE(gui::test::writeTinyPlan(tmp_.filePath(QStringLiteral("p.json")), 100000), QString());
    startWorkbench();
}

void TestDetach::cleanupTestCase()
{
    w_.reset();
    // A failed check must not leave a run training: stop what is left.
    for (const QString& dir : std::as_const(runDirs_)) {
        QProcess stop;
        stop.start(gui::test::binPath(QStringLiteral("shardbench-supervise")), {QStringLiteral("stop"), dir, QStringLiteral("--kill")});
        stop.waitForFinished(60000);
    }
}

void TestDetach::startWorkbench()
{
    w_ = std::make_unique<gui::test::Workbench>();
    w_->window->setInteractive(false);
    QVERIFY(w_->window->files()->openFile(tmp_.filePath(QStringLiteral("p.json"))));
}

qint64 TestDetach::launchDetached(const QString& name)
{
    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    LaunchPanel* panel = areas()->launchPanel();
    panel->nameEdit()->setText(name);
    panel->detachBox()->setChecked(true);
    RunController* rc = areas()->runs();
    const AttachedRun* before = rc->attached();
    QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return rc->attached() != before && rc->attached() != nullptr; }, 60000)) {
        qWarning("not attached: %s", qPrintable(panel->messageLabel()->text()));
        return -1;
    }
    runDirs_[rc->attached()->runId()] = rc->attached()->row().runDir;
    return rc->attached()->runId();
}

qint64 TestDetach::launchAndDetach(const QString& name)
{
    const qint64 run = launchDetached(name);
    AttachedRun* a = areas()->runs()->attached();
    if (run < 0 || !QTest::qWaitFor([&] { return a->live()->lastStep() >= 3; }, 60000)) return -1;
    QTest::mouseClick(areas()->launchPanel()->detachButton(), Qt::LeftButton);
    return QTest::qWaitFor([&] { return a->isFinished(); }, 20000) ? run : -1;
}

bool TestDetach::attachFromRuns(qint64 run)
{
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    RunsView* view = areas()->runsView();
    if (!QTest::qWaitFor([&] { return areas()->runsModel()->rowOfRun(run) >= 0; }, 10000)) return false;
    view->selectRuns({run});
    if (!view->attachButton()->isEnabled()) return false;
    QTest::mouseClick(view->attachButton(), Qt::LeftButton);
    return areas()->runs()->attached() && areas()->runs()->attached()->runId() == run;
}

QJsonObject TestDetach::state(qint64 run) const
{
    QFile f(QDir(runDir(run)).filePath(QStringLiteral("state.json")));
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

bool TestDetach::supervisorAlive(qint64 run) const
{
    // The supervisor holds an flock on supervisor.lock for as long as it lives.
    const int fd = ::open(QDir(runDir(run)).filePath(QStringLiteral("supervisor.lock")).toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    return held;
}

int TestDetach::stepsInRunDir(qint64 run) const
{
    int steps = 0;
    const QDir dir(runDir(run));
    for (const QString& attempt : dir.entryList({QStringLiteral("attempt-*")}, QDir::Dirs)) {
        QFile f(dir.filePath(attempt + QStringLiteral("/rank-0.events")));
        if (!f.open(QIODevice::ReadOnly)) continue;
        steps += static_cast<int>(f.readAll().count(R"("type":"step")"));
    }
    return steps;
}

int TestDetach::storedRank0Steps(qint64 run, bool* unique) const
{
    auto reader = areas()->store()->openReader().valueOr(nullptr);
    QSet<QPair<int, int>> seen; // (attempt, step)
    int rows = 0;
    if (reader)
        reader->forEachStepRow(run, 0, [&](const store::MetricRow& r) {
            ++rows;
            seen.insert(qMakePair(r.m.attempt, r.m.step));
        });
    *unique = seen.size() == rows;
    return rows;
}

void TestDetach::runOutlivesTheWorkbenchAndAttachDrawsTheBacklog()
{
    const qint64 run = launchDetached(QStringLiteral("outlives"));
    QVERIFY(run > 0);
    AttachedRun* a = areas()->runs()->attached();
    QVERIFY(QTest::qWaitFor([&] { return a->live()->lastStep() >= 3; }, 60000));
    QVERIFY(areas()->launchPanel()->detachButton()->isVisible());
    QCOMPARE(areas()->runsModel()->data(areas()->runsModel()->index(areas()->runsModel()->rowOfRun(run), RunsModel::StatusColumn)).toString(),
             QStringLiteral("running on the cluster — attached"));

    // Quit the workbench: the run trains on without it.
    QVERIFY(w_->window->close());
    w_.reset();
    const int stepsAtQuit = stepsInRunDir(run);
    startWorkbench();
    QVERIFY(supervisorAlive(run));
    QVERIFY(QTest::qWaitFor([&] { return stepsInRunDir(run) >= stepsAtQuit + 20; }, 60000));
    QCOMPARE(state(run).value(QStringLiteral("status")).toString(), QStringLiteral("running"));

    // Started again: the Run area says at once that it was going, and offers to attach.
    GoingRunsBar* going = areas()->launchPanel()->goingRunsBar();
    QVERIFY(QTest::qWaitFor([&] { return !going->isHidden(); }, 10000));
    QCOMPARE(going->runs().size(), 1);
    QCOMPARE(going->runs().first().id, run);
    QVERIFY2(going->textLabel()->text().startsWith(QStringLiteral("Run %1 (outlives), detached on ").arg(run)),
             qPrintable(going->textLabel()->text()));
    QCOMPARE(going->attachButton()->text(), QStringLiteral("Attach to run %1").arg(run));

    // And the run is listed as running on the cluster, not attached.
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    RunsModel* runs = areas()->runsModel();
    QVERIFY(QTest::qWaitFor([&] { return runs->rowOfRun(run) >= 0; }, 10000));
    QCOMPARE(runs->data(runs->index(runs->rowOfRun(run), RunsModel::StatusColumn)).toString(),
             QStringLiteral("running on the cluster — not attached"));
    // Showing Runs caught up with it: still running, as on the cluster.
    QVERIFY(QTest::qWaitFor([&] { return !areas()->history()->isRefreshing(); }, 30000));
    QCOMPARE(runs->data(runs->index(runs->rowOfRun(run), RunsModel::StatusColumn)).toString(),
             QStringLiteral("running on the cluster — not attached"));
    QVERIFY(attachFromRuns(run));
    a = areas()->runs()->attached();
    QVERIFY(going->isHidden()); // followed now: the notice is old news

    // The backlog is drawn from the first step, then the live steps follow.
    const int wanted = stepsInRunDir(run) + 10;
    QVERIFY(QTest::qWaitFor([&] { return a->live()->lastStep() >= wanted; }, 60000));
    QCOMPARE(a->live()->firstStep(), 1);
    QCOMPARE(a->live()->table().size(), static_cast<qsizetype>(a->live()->lastStep())); // no gap, no duplicate
    LiveRunView* live = areas()->liveView();
    QVERIFY(QTest::qWaitFor([&] { return live->lossChart()->drawnPoints(0) > stepsAtQuit; }, 5000));
    QVERIFY2(live->statusText().contains(QStringLiteral("attached")), qPrintable(live->statusText()));
    // A small run sends every rank's steps live: rank 1's memory bar moves too.
    const int rank1Before = a->live()->ranks().value(1).lastStep;
    QVERIFY(QTest::qWaitFor([&] { return a->live()->ranks().value(1).lastStep > rank1Before + 5; }, 30000));
    QVERIFY(a->live()->ranks().value(1).peak > 0);

    // Stop from the workbench: cancelled where it runs, and recorded.
    QTest::mouseClick(areas()->launchPanel()->stopButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return a->isFinished(); }, 60000));
    QCOMPARE(a->status(), store::RunStatus::Cancelled);
    QVERIFY(a->followError().isEmpty());
    QVERIFY(!supervisorAlive(run));
    QCOMPARE(state(run).value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    bool unique = false;
    const int stored = storedRank0Steps(run, &unique);
    QVERIFY(unique);
    QCOMPARE(stored, stepsInRunDir(run));
    QCOMPARE(stored, state(run).value(QStringLiteral("steps_done")).toInt());
    auto reader = areas()->store()->openReader().valueOr(nullptr);
    QCOMPARE(reader->run(run)->status, QStringLiteral("cancelled"));
    QVERIFY(areas()->launchPanel()->launchButton()->isEnabled());
}

void TestDetach::detachLeavesTheRunGoingAndStopEndsIt()
{
    const qint64 run = launchAndDetach(QStringLiteral("detached"));
    QVERIFY(run > 0);
    AttachedRun* a = areas()->runs()->attached();
    QVERIFY(a->followError().isEmpty());
    QVERIFY(!store::isFinal(a->status()));
    QVERIFY(areas()->launchPanel()->launchButton()->isEnabled());
    QVERIFY(supervisorAlive(run));
    QVERIFY(areas()->launchPanel()->messageLabel()->text().contains(QStringLiteral("goes on")));

    // Attach again and stop twice: the second request skips the grace.
    QVERIFY(attachFromRuns(run));
    a = areas()->runs()->attached();
    QVERIFY(QTest::qWaitFor([&] { return a->isConnected(); }, 30000));

    // Rank 1's log is not followed; showing its pane fetches it, and again only what is new.
    auto appendRank1 = [&](const char* text) {
        QFile log(QDir(runDir(run)).filePath(QStringLiteral("attempt-0/rank-1.log")));
        QVERIFY(log.open(QIODevice::Append));
        log.write(QByteArray(R"({"t":1,"s":"o","l":")") + text + "\"}\n");
    };
    appendRank1("first line of rank 1");
    LogPanes* panes = areas()->liveView()->logs();
    // Counted through the search field: the rank logs its own progress besides.
    panes->filterEdit()->setText(QStringLiteral("line of rank 1"));
    QSignalSpy fetched(a, &AttachedRun::rankLogFetched);
    panes->showRank(1);
    QVERIFY(fetched.wait(30000));
    QCOMPARE(fetched.takeFirst().value(1).toString(), QString());
    QCOMPARE(panes->shownLines(1), 1);
    appendRank1("second line of rank 1");
    panes->showRank(0);
    panes->showRank(1);
    QVERIFY(fetched.wait(30000));
    QCOMPARE(panes->shownLines(1), 2);
    panes->filterEdit()->clear();
    QVERIFY(panes->shownLines(1) > 2); // and rank 1's own lines ("[rank 1] started on ...")
    QTest::mouseClick(areas()->launchPanel()->stopButton(), Qt::LeftButton);
    areas()->runs()->stop();
    QVERIFY(QTest::qWaitFor([&] { return a->isFinished(); }, 60000));
    QCOMPARE(a->status(), store::RunStatus::Cancelled);
    QVERIFY(!supervisorAlive(run));
}

void TestDetach::refreshReconcilesAVanishedSupervisor()
{
    const qint64 run = launchAndDetach(QStringLiteral("vanishes"));
    QVERIFY(run > 0);
    // The supervisor dies without a word (its ranks die with it).
    const qint64 pid = state(run).value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("pid")).toInteger();
    QVERIFY(pid > 0);
    QCOMPARE(sb::test::signalProcess(pid, SIGKILL), 0);
    QVERIFY(QTest::qWaitFor([&] { return !supervisorAlive(run); }, 10000));

    // Refresh in Runs: the store learns the cluster's truth.
    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    QSignalSpy refreshed(areas()->history(), &RunsController::detachedRefreshed);
    QTest::mouseClick(areas()->runsView()->refreshButton(), Qt::LeftButton);
    QVERIFY(refreshed.wait(30000));
    RunsModel* runs = areas()->runsModel();
    QVERIFY(QTest::qWaitFor([&] { return runs->rowOfRun(run) >= 0; }, 5000));
    const int row = runs->rowOfRun(run);
    QCOMPARE(runs->data(runs->index(row, RunsModel::StatusColumn)).toString(), QStringLiteral("failed"));
    QVERIFY2(runs->data(runs->index(row, RunsModel::ReasonColumn)).toString().contains(QStringLiteral("is gone")),
             qPrintable(runs->data(runs->index(row, RunsModel::ReasonColumn)).toString()));
    QVERIFY(!runs->isAttachable(run));
}

void TestDetach::slurmRunOutlivesTheWorkbench()
{
    // The launcher suites' one-node cluster: sbatch, the supervisor in the job.
    if (const QString why = sb::test::SlurmTestCluster::skipReason(); !why.isEmpty()) QSKIP(qPrintable(why));
    sb::test::SlurmTestCluster cluster;
    const QString started = cluster.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    TargetChooser* target = areas()->launchPanel()->targetChooser();
    target->slurmButton()->click();
    target->timeLimitEdit()->setText(QStringLiteral("10:00"));
    const auto local = qScopeGuard([&] { if (w_) areas()->launchPanel()->targetChooser()->localButton()->click(); });

    const qint64 run = launchDetached(QStringLiteral("through sbatch"));
    QVERIFY(run > 0);
    AttachedRun* a = areas()->runs()->attached();
    QVERIFY(QTest::qWaitFor([&] { return a->live()->lastStep() >= 3; }, 120000));
    QCOMPARE(a->row().backend, QStringLiteral("slurm"));
    QVERIFY(w_->window->close());
    w_.reset();
    // The job trains on without the workbench.
    const int stepsAtQuit = stepsInRunDir(run);
    QVERIFY(QTest::qWaitFor([&] { return stepsInRunDir(run) >= stepsAtQuit + 20; }, 60000));
    QCOMPARE(sb::test::queuedJobNames().size(), 1);

    startWorkbench();
    // Attached from the Run area's notice of the runs that went on.
    GoingRunsBar* going = areas()->launchPanel()->goingRunsBar();
    QVERIFY(QTest::qWaitFor([&] { return !going->isHidden(); }, 10000));
    QCOMPARE(going->runs().first().id, run);
    QTest::mouseClick(going->attachButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return areas()->runs()->attached() && areas()->runs()->attached()->runId() == run; }, 30000));
    QVERIFY(going->isHidden());
    a = areas()->runs()->attached();
    const int wanted = stepsInRunDir(run) + 5;
    QVERIFY(QTest::qWaitFor([&] { return a->live()->lastStep() >= wanted; }, 60000));
    QCOMPARE(a->live()->firstStep(), 1);
    QCOMPARE(a->live()->table().size(), static_cast<qsizetype>(a->live()->lastStep()));
    QTest::mouseClick(areas()->launchPanel()->stopButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return a->isFinished(); }, 90000));
    QVERIFY2(a->status() == store::RunStatus::Cancelled, qPrintable(a->reason()));
    QVERIFY(QTest::qWaitFor([&] { return sb::test::queuedJobNames().isEmpty(); }, 60000));
    runDirs_.remove(run); // nothing left to stop; the cluster goes with this test
}

QTEST_MAIN(TestDetach)
#include "tst_gui_detach.moc"
