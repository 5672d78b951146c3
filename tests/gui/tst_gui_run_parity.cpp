// One plan run from the command line and from the workbench, both through
// the app's run service, records the same rows in one run store: the run
// (plan as stored, target, status, reason, steps, final loss), its attempts,
// every rank's step metrics (loss, learning rate, gradient norm, tokens),
// the events each rank sent and the checkpoints, apart from ids, times,
// process ids and what is measured (timings, memory). Supervised here and
// detached (supervised where it runs, followed to its end), real
// shardbench-core, shardbench-cli and shardbench-supervise.
#include "gui_test_support.hpp"

#include "history/store_access.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "views/launch_panel.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include "plan/plan_json.hpp"
#include "store/run_reader.hpp"

#include <QCheckBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace sb;
using namespace sb::gui;

namespace {

// What a stored row says once its ids, times and measurements are left out.
QStringList runFacts(store::RunReader& r, qint64 id)
{
    const std::optional<store::RunRow> run = r.run(id);
    if (!run) return {QStringLiteral("no run %1").arg(id)};
    auto unUid = [&](QString s) { return s.replace(run->uid, QStringLiteral("UID")); };
    QStringList f;
    f << QStringLiteral("run name=%1 backend=%2 hosts=%3 world=%4 status=%5 reason=%6 code=%7 args=%8 failing=%9")
             .arg(run->name, run->backend, run->hosts.join(u','))
             .arg(run->worldSize)
             .arg(run->status, run->reason, run->reasonCode, run->reasonArgs.join(u','))
             .arg(run->failingRank);
    f << QStringLiteral("run parent=%1 resumed=%2 init=%3 restarts=%4/%5 steps=%6 final=%7 malformed=%8 host=%9")
             .arg(run->parentRun)
             .arg(run->resumedFrom, run->initFrom)
             .arg(run->restarts)
             .arg(run->maxRestarts)
             .arg(run->stepsDone)
             .arg(run->finalLoss, 0, 'g', 17)
             .arg(run->malformedLines)
             .arg(run->launcherHost);
    f << QStringLiteral("run detached=%1 dir=%2").arg(run->isDetached()).arg(QFileInfo(unUid(run->runDir)).fileName());
    f << QStringLiteral("plan ") + run->planJson;
    for (const store::AttemptRecord& a : r.attempts(id))
        f << QStringLiteral("attempt %1 status=%2 reason=%3 failing=%4 resume=%5")
                 .arg(a.attempt)
                 .arg(a.status, a.reason)
                 .arg(a.failingRank)
                 .arg(a.resumeDir);
    r.forEachStepRow(id, -1, [&f](const store::MetricRow& row) {
        const protocol::StepMetrics& m = row.m;
        f << QStringLiteral("step a%1 r%2 %3/%4 loss=%5 lr=%6 grad=%7 tokens=%8 eval=%9")
                 .arg(m.attempt)
                 .arg(m.rank)
                 .arg(m.step)
                 .arg(m.steps)
                 .arg(m.loss, 0, 'g', 17)
                 .arg(m.lr, 0, 'g', 17)
                 .arg(m.gradNorm, 0, 'g', 17)
                 .arg(m.tokens)
                 .arg(std::isnan(m.evalLoss) ? QStringLiteral("-") : QString::number(m.evalLoss, 'g', 17));
    });
    // Each rank's events in their order; the ranks' interleaving is the scheduler's.
    QList<store::EventRecord> events = r.events(id);
    std::stable_sort(events.begin(), events.end(), [](const store::EventRecord& a, const store::EventRecord& b) {
        return std::pair(a.attempt, a.rank) < std::pair(b.attempt, b.rank);
    });
    for (const store::EventRecord& e : events) {
        QString line = QStringLiteral("event a%1 r%2 %3").arg(e.attempt).arg(e.rank).arg(e.type);
        const QJsonObject o = QJsonDocument::fromJson(e.json).object();
        if (e.type == QLatin1String("checkpoint") || e.type == QLatin1String("done"))
            for (const char* key : {"step", "kind", "status", "steps", "final_loss"})
                if (o.contains(QLatin1String(key))) line += QStringLiteral(" %1=%2").arg(QLatin1String(key), o.value(QLatin1String(key)).toVariant().toString());
        f << line;
    }
    QList<store::CheckpointRecord> checkpoints = r.checkpoints(id);
    std::stable_sort(checkpoints.begin(), checkpoints.end(), [](const store::CheckpointRecord& a, const store::CheckpointRecord& b) {
        return std::tuple(a.attempt, a.step, a.rank) < std::tuple(b.attempt, b.step, b.rank);
    });
    for (const store::CheckpointRecord& c : checkpoints)
        f << QStringLiteral("checkpoint a%1 r%2 step=%3 world=%4 bytes=%5 kind=%6 status=%7 message=%8 path=%9")
                 .arg(c.attempt)
                 .arg(c.rank)
                 .arg(c.step)
                 .arg(c.worldSize)
                 .arg(c.bytes)
                 .arg(c.kind, c.status, c.message, QFileInfo(unUid(c.path)).fileName());
    return f;
}

} // namespace

class TestRunParity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings();
        QVERIFY(tmp_.isValid());
        test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
        store_ = tmp_.filePath(QStringLiteral("work/runs.sqlite"));
        plan_ = tmp_.filePath(QStringLiteral("p.json"));
        QCOMPARE(test::writeTinyPlan(plan_, 6), QString());
        // Checkpoints in a folder relative to the plan's: both front ends
        // store it as the same absolute folder.
        PlanReadResult read = loadPlanFile(plan_.toStdString());
        QVERIFY(read.ok());
        read.plan.training.checkpoint.dir = "ckpt";
        read.plan.training.checkpoint.interval = 3;
        QVERIFY(savePlanFile(read.plan, plan_.toStdString()).ok());
        w_ = std::make_unique<test::Workbench>();
        w_->window->setInteractive(false);
        QVERIFY(w_->window->files()->openFile(plan_));
        RunAreas* areas = w_->window->areas();
        w_->window->areaTabs()->setCurrentWidget(areas->runArea());
        areas->launchPanel()->nameEdit()->setText(QStringLiteral("parity"));
    }

    void cleanupTestCase() { w_.reset(); }

    void supervisedRunsRecordTheSame() { compareLaunches(false); }
    void detachedRunsRecordTheSame() { compareLaunches(true); }

private:
    // The run id the command line printed last, from the store: its newest run.
    qint64 newestRun()
    {
        QString error;
        auto reader = store::RunReader::open(store_, &error);
        if (!reader) return -1;
        const QList<store::RunRow> runs = reader->listRuns(1);
        return runs.isEmpty() ? -1 : runs.first().id;
    }

    void compareLaunches(bool detach)
    {
        // The command line, in the plan's folder (where its relative paths are).
        QProcess cli;
        cli.setWorkingDirectory(tmp_.path());
        cli.setProcessChannelMode(QProcess::MergedChannels);
        QStringList args{QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--core"),
                         test::binPath(QStringLiteral("shardbench-core")), QStringLiteral("--db"), store_, QStringLiteral("--name"),
                         QStringLiteral("parity"), QStringLiteral("--quiet")};
        if (detach) args << QStringLiteral("--detach");
        cli.start(test::binPath(QStringLiteral("shardbench-cli")), args);
        QVERIFY(cli.waitForFinished(120000));
        const QString said = QString::fromUtf8(cli.readAll());
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0, qPrintable(said));
        const qint64 fromCli = newestRun();
        QVERIFY(fromCli > 0);

        // The workbench, launching the same plan file from the Run area.
        RunAreas* areas = w_->window->areas();
        LaunchPanel* panel = areas->launchPanel();
        panel->detachBox()->setChecked(detach);
        RunController* rc = areas->runs();
        const RunSession* before = rc->session();
        QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
        if (detach) {
            QVERIFY2(QTest::qWaitFor([&] { return rc->attached() != nullptr; }, 60000), qPrintable(panel->messageLabel()->text()));
            QVERIFY(QTest::qWaitFor([&] { return rc->attached()->isFinished(); }, 120000));
            QVERIFY2(rc->attached()->followError().isEmpty(), qPrintable(rc->attached()->followError()));
        } else {
            QVERIFY2(QTest::qWaitFor([&] { return rc->session() != before && rc->session() != nullptr; }, 60000),
                     qPrintable(panel->messageLabel()->text()));
            QVERIFY(QTest::qWaitFor([&] { return rc->session()->isFinished(); }, 120000));
        }
        QVERIFY(QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000));
        const qint64 fromGui = newestRun();
        QVERIFY(fromGui > fromCli);

        QString error;
        auto reader = store::RunReader::open(store_, &error);
        QVERIFY2(reader, qPrintable(error));
        const QStringList cliFacts = runFacts(*reader, fromCli), guiFacts = runFacts(*reader, fromGui);
        // The run went as planned: 6 steps of 2 ranks, two checkpoints.
        QVERIFY2(cliFacts.first().contains(QStringLiteral("status=completed")), qPrintable(cliFacts.join(u'\n')));
        QCOMPARE(cliFacts.filter(QStringLiteral("step a")).size(), 12);
        QCOMPARE(cliFacts.filter(QStringLiteral("checkpoint a")).size() > 0, true);
        QCOMPARE(reader->run(fromCli)->isDetached(), detach);
        for (qsizetype i = 0; i < std::min(cliFacts.size(), guiFacts.size()); ++i)
            QVERIFY2(cliFacts[i] == guiFacts[i], qPrintable(QStringLiteral("row %1 differs\n  cli: %2\n  gui: %3").arg(i).arg(cliFacts[i], guiFacts[i])));
        QCOMPARE(cliFacts.size(), guiFacts.size());
    }

    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    QString store_, plan_;
};

QTEST_MAIN(TestRunParity)
#include "tst_gui_run_parity.moc"
