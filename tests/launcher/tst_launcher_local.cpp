// Local runs of the real shardbench-core, supervised like torchrun: a run
// completes and is recorded; a rank killed with SIGKILL stops every other
// rank within 5 s and fails the run naming it; a cancel stops everything;
// max_restarts relaunches the group, from the latest checkpoint once there
// is one. After each run no process of it is left.
#include "launcher_test_support.hpp"
#include "../safe_signal.hpp"
#include "run_harness.hpp"

#include "store/run_reader.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <functional>

using namespace sb;
using namespace sb::test;

namespace {

launch::RunConfig localConfig(const QString& plan)
{
    launch::RunConfig c;
    c.planPath = plan;
    c.name = QStringLiteral("local test");
    launch::LocalTarget here;
    here.corePath = corePath();
    c.target = here;
    c.extraEnv.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
    return c;
}

// Starts in `h` a local run of a 2-rank plan whose core is the shell script
// `script`, so that the test decides what the ranks print: "" or what failed.
QString startScriptedRun(RunHarness& h, const QTemporaryDir& tmp, const QByteArray& script)
{
    const QString plan = tmp.filePath(QStringLiteral("plan.json"));
    const QString core = tmp.filePath(QStringLiteral("scripted-core"));
    for (const QString& failed : {writeTinyPlan(plan, 1, 2, 20), SshdFixture::writeFile(core, script)})
        if (!failed.isEmpty()) return failed;
    QFile::setPermissions(core, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    launch::RunConfig c = localConfig(plan);
    std::get<launch::LocalTarget>(c.target).corePath = core;
    const QString prepared = h.prepare(c);
    if (prepared.isEmpty()) h.start();
    return prepared;
}

void expectNoProcessesOf(const QString& uid)
{
    const auto left = waitUntilNoneMention(uid.toUtf8(), 3000);
    QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left behind:\n") + describe(left)));
}

// SIGKILL to `rank` once it reported `step` in attempt 0; `before` runs just before.
void killInFirstAttempt(RunHarness& h, int rank, int step, bool& killed, const std::function<void()>& before = {})
{
    QObject::connect(&h.supervisor(), &launch::RunSupervisor::stepReported, &h.supervisor(),
                     [&h, &killed, rank, step, before](const protocol::StepMetrics& m) {
                         if (killed || m.attempt != 0 || m.rank != rank || m.step < step || h.pids.value(rank) <= 0) return;
                         killed = true;
                         if (before) before();
                         sb::test::signalProcess(h.pids.value(rank), SIGKILL);
                     });
}

} // namespace

class LauncherLocal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(corePath()), qPrintable(corePath() + QStringLiteral(" is missing")));
    }

    void completesAndRecordsEverything()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 20), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(h.prepare(localConfig(plan)), QString());
        h.start();
        QVERIFY2(h.waitFinished(60000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + h.errors.join(QLatin1Char('\n'))));
        QCOMPARE(o.stepsDone, 20);
        QVERIFY(std::isfinite(o.finalLoss));
        QCOMPARE(h.steps.size(), 40);
        const QString uid = h.launch().uid;
        const qint64 id = h.runId();
        expectNoProcessesOf(uid);
        auto readerOpened = h.closeAndOpenReader();
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const auto run = reader->run(id);
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("completed"));
        QCOMPARE(run->uid, uid);
        QCOMPARE(run->backend, QStringLiteral("local"));
        QCOMPARE(run->worldSize, 2);
        QCOMPARE(run->stepsDone, 20);
        QCOMPARE(run->finalLoss, o.finalLoss);
        QVERIFY(run->planJson.contains(QLatin1String("shardbench-plan")));
        QVERIFY(!std::isnan(run->startedAt) && run->endedAt >= run->startedAt);
        const store::MetricSeries loss = reader->series(id, store::Metric::Loss);
        QCOMPARE(loss.size(), 40);
        for (double v : loss.values) QVERIFY(std::isfinite(v) && v > 0);
        QCOMPARE(reader->series(id, store::Metric::MemPeak, 1).size(), 20);
        QCOMPARE(reader->events(id, QStringLiteral("hello")).size(), 2);
        QCOMPARE(reader->events(id, QStringLiteral("done")).size(), 2);
        QCOMPARE(reader->attempts(id).size(), 1);
        QCOMPARE(reader->attempts(id)[0].status, QStringLiteral("completed"));
        QVERIFY(!reader->logs(id, -1).isEmpty());
    }

    void killedRankStopsEveryOtherRank()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 3, 1000000), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(h.prepare(localConfig(plan)), QString());
        h.start();
        QCOMPARE(h.killRankWhenTraining(1, 3), QString());
        QVERIFY2(h.msFromStopToFinish < 5500, qPrintable(QStringLiteral("took %1 ms").arg(h.msFromStopToFinish)));
        QCOMPARE(h.blamesKilledRank(1), QString());
        const launch::RunOutcome& o = h.supervisor().outcome();
        const QString uid = h.launch().uid;
        const qint64 id = h.runId();
        expectNoProcessesOf(uid);
        auto reader = h.closeAndOpenReader().valueOr(nullptr);
        const auto run = reader->run(id);
        QCOMPARE(run->status, QStringLiteral("failed"));
        QCOMPARE(run->failingRank, 1);
        QCOMPARE(run->reason, o.reason);
        // Also as a failure catalogue code, for the workbench to word in its language.
        QCOMPARE(run->reasonCode, QStringLiteral("rank.killed"));
        QCOMPARE(run->reasonArgs.value(0), QStringLiteral("1"));
        QCOMPARE(run->reasonArgs.value(2), QStringLiteral("9"));
    }

    void cancelStopsEveryRank()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 1000000), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(h.prepare(localConfig(plan)), QString());
        h.start();
        QCOMPARE(h.stopWhenTraining(2, [&] { h.supervisor().cancel(); return QString(); }), QString());
        QVERIFY(h.msFromStopToFinish < 5500);
        QCOMPARE(h.supervisor().outcome().status, store::RunStatus::Cancelled);
        const auto run = h.closeAndReadRun();
        expectNoProcessesOf(h.launch().uid);
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("cancelled"));
        QCOMPARE(run->failingRank, -1);
    }

    void restartsFromScratchWithoutCheckpoints()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 200), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        launch::RunConfig c = localConfig(plan);
        c.maxRestarts = 1;
        QCOMPARE(h.prepare(c), QString());
        bool killed = false;
        killInFirstAttempt(h, 0, 5, killed);
        h.start();
        QVERIFY(h.waitFinished(90000));
        QVERIFY(killed);
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason));
        QCOMPARE(o.restarts, 1);
        const qint64 id = h.runId();
        const QString uid = h.launch().uid;
        expectNoProcessesOf(uid);
        auto reader = h.closeAndOpenReader().valueOr(nullptr);
        const auto attempts = reader->attempts(id);
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts[0].status, QStringLiteral("failed"));
        QCOMPARE(attempts[0].failingRank, 0);
        QCOMPARE(attempts[1].status, QStringLiteral("completed"));
        QVERIFY(attempts[1].resumeDir.isEmpty());
        int firstStepOfSecondAttempt = -1;
        reader->forEachStepRow(id, 0, [&](const store::MetricRow& r) {
            if (r.m.attempt == 1 && firstStepOfSecondAttempt < 0) firstStepOfSecondAttempt = r.m.step;
        });
        QCOMPARE(firstStepOfSecondAttempt, 1);
        QCOMPARE(reader->series(id, store::Metric::Loss, 0).size(), 200);
        QCOMPARE(reader->run(id)->restarts, 1);
        QCOMPARE(reader->run(id)->status, QStringLiteral("completed"));
    }

    void everyAttemptRunsTheRecordedPlan()
    {
        // The plan file is edited during attempt 0 (fewer steps); attempt 1
        // must still train the plan that was validated and recorded.
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 60), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        launch::RunConfig c = localConfig(plan);
        c.maxRestarts = 1;
        QCOMPARE(h.prepare(c), QString());
        bool killed = false;
        QString editError;
        killInFirstAttempt(h, 0, 3, killed, [&] { editError = writeTinyPlan(plan, 1, 2, 7); });
        QList<int> doneSteps; // the plan's steps, as attempt 1's `done` events report them
        QObject::connect(&h.supervisor(), &launch::RunSupervisor::eventReceived, &h.supervisor(),
                         [&](int attempt, const protocol::CoreEvent& e) {
                             if (e.type == QLatin1String("done") && attempt == 1)
                                 doneSteps << (e.body.find("steps") ? static_cast<int>(e.body.find("steps")->asInt()) : -1);
                         });
        h.start();
        QVERIFY(h.waitFinished(90000));
        QVERIFY(killed);
        QCOMPARE(editError, QString());
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason));
        QCOMPARE(o.restarts, 1);
        QCOMPARE(o.stepsDone, 60);
        int lastStepOfSecondAttempt = -1;
        for (const protocol::StepMetrics& m : h.steps)
            if (m.attempt == 1 && m.rank == 0) lastStepOfSecondAttempt = m.step;
        QCOMPARE(lastStepOfSecondAttempt, 60);
        QCOMPARE(doneSteps, (QList<int>{60, 60}));
        const auto run = h.closeAndReadRun();
        QVERIFY(run);
        QVERIFY(run->planJson.contains(QLatin1String("\"steps\": 60")) || run->planJson.contains(QLatin1String("\"steps\":60")));
    }

    void restartsFromTheLatestCompleteCheckpoint()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 120, tmp.filePath(QStringLiteral("ckpt")), 10), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        launch::RunConfig c = localConfig(plan);
        c.maxRestarts = 2;
        QCOMPARE(h.prepare(c), QString());
        int killedAfterCheckpoint = -1;
        QObject::connect(&h.supervisor(), &launch::RunSupervisor::checkpointReported, &h.supervisor(),
                         [&](int attempt, int rank, const protocol::CheckpointEvent& ck) {
                             if (killedAfterCheckpoint < 0 && attempt == 0 && rank == 0 && protocol::isComplete(ck) && ck.step >= 20) {
                                 killedAfterCheckpoint = static_cast<int>(ck.step);
                                 sb::test::signalProcess(h.pids.value(1), SIGKILL);
                             }
                         });
        h.start();
        QVERIFY(h.waitFinished(120000));
        QVERIFY2(killedAfterCheckpoint > 0, qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + QLatin1Char('\n') + h.errors.join(QLatin1Char('\n'))));
        QCOMPARE(o.restarts, 1);
        QCOMPARE(o.stepsDone, 120);
        const qint64 id = h.runId();
        auto reader = h.closeAndOpenReader().valueOr(nullptr);
        const auto attempts = reader->attempts(id);
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts[0].failingRank, 1);
        // Resumed from the checkpoint rank 0 reported complete before the kill (or a later one).
        QString resumedPath;
        int resumedStep = -1;
        for (const store::CheckpointRecord& ck : reader->checkpoints(id))
            if (ck.attempt == 0 && ck.rank == 0 && ck.status == QLatin1String("complete") && ck.path == attempts[1].resumeDir) {
                resumedPath = ck.path;
                resumedStep = ck.step;
            }
        QVERIFY2(!resumedPath.isEmpty(), qPrintable(attempts[1].resumeDir));
        QVERIFY(resumedStep >= killedAfterCheckpoint);
        int first = -1;
        reader->forEachStepRow(id, 1, [&](const store::MetricRow& r) {
            if (r.m.attempt == 1 && first < 0) first = r.m.step;
        });
        QCOMPARE(first, resumedStep + 1);
        QCOMPARE(reader->series(id, store::Metric::Loss, 1).size(), 120);
    }

    void doesNotRetryWhatCannotStart()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 20), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        launch::RunConfig c = localConfig(plan);
        std::get<launch::LocalTarget>(c.target).corePath = tmp.filePath(QStringLiteral("no-such-core"));
        c.maxRestarts = 3;
        QCOMPARE(h.prepare(c), QString());
        h.start();
        QVERIFY(h.waitFinished(20000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        qInfo("reason: %s", qPrintable(o.reason));
        QCOMPARE(o.status, store::RunStatus::Failed);
        QCOMPARE(o.restarts, 0);
        QVERIFY2(o.reason.contains(QLatin1String("could not be started")), qPrintable(o.reason));
    }

    void survivesGarbageOnStdout()
    {
        // Not the core: a program printing broken event lines and a runaway
        // line. The run must end normally with the lines counted.
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startScriptedRun(h, tmp,
                                  "#!/bin/sh\n"
                                  "echo '@sb {broken'\n"
                                  "echo '@sb {\"type\":\"step\",\"rank\":0,\"step\":1,\"loss\":2.5}'\n"
                                  "echo 'plain text'\n"
                                  "printf '@sb '; head -c 3000000 /dev/zero | tr '\\000' x; echo\n"
                                  "printf '\\377\\376 not utf-8\\n'\n"
                                  "exit 0\n"),
                 QString());
        QVERIFY(h.waitFinished(20000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QCOMPARE(o.status, store::RunStatus::Completed);
        QCOMPARE(o.malformedLines, 4); // 2 ranks x (broken JSON + runaway line)
        QCOMPARE(h.steps.size(), 2);
    }

    void storesBlankLinesAndCapsEvents()
    {
        // Not the core: each rank prints blank lines and 60 events of 200 KB
        // (12 MB). Blank lines are stored; events stop at the budget, with a marker.
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startScriptedRun(h, tmp,
                                  "#!/bin/sh\n"
                                  "echo 'before'\n"
                                  "echo\n"
                                  "echo '@sb {\"type\":\"hello\",\"rank\":0}'\n"
                                  "big=$(head -c 200000 /dev/zero | tr '\\000' x)\n"
                                  "i=0\n"
                                  "while [ $i -lt 60 ]; do\n"
                                  "  echo \"@sb {\\\"type\\\":\\\"note\\\",\\\"rank\\\":0,\\\"text\\\":\\\"$big\\\"}\"\n"
                                  "  i=$((i+1))\n"
                                  "done\n"
                                  "echo '@sb {\"type\":\"done\",\"rank\":0,\"status\":\"ok\",\"steps\":0}'\n"
                                  "echo\n"
                                  "exit 0\n"),
                 QString());
        QVERIFY(h.waitFinished(60000));
        QCOMPARE(h.supervisor().outcome().status, store::RunStatus::Completed);
        QCOMPARE(h.recorderError(), QString());
        const qint64 id = h.runId();
        auto readerOpened = h.closeAndOpenReader();
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        for (int rank = 0; rank < 2; ++rank) {
            QStringList lines;
            for (const store::LogRecord& l : reader->logs(id, rank)) lines << l.line;
            QCOMPARE(lines.count(QString()), 2);
            QVERIFY(lines.contains(QStringLiteral("before")));
        }
        qint64 noteBytes = 0;
        int notes = 0;
        for (const store::EventRecord& e : reader->events(id, QStringLiteral("note"))) {
            noteBytes += e.json.size();
            ++notes;
        }
        const launch::RecorderOptions defaults;
        QVERIFY2(noteBytes <= 2 * defaults.eventBytes, qPrintable(QString::number(noteBytes)));
        QVERIFY(notes > 0 && notes < 120);
        QCOMPARE(reader->events(id, QStringLiteral("done")).size(), 2); // essential events are always stored
        QStringList markers;
        for (const store::LogRecord& l : reader->logs(id, -2))
            if (l.stream == store::LogStream::Launcher && l.line.contains(QLatin1String("events of rank"))) markers << l.line;
        QCOMPARE(markers.size(), 2);
        QVERIFY2(markers[0].contains(QStringLiteral("[%1 events of rank").arg(60 - notes / 2)), qPrintable(markers.join(u'\n')));
    }

    void failedCheckpointsDoNotEndPlainCompleted()
    {
        // The checkpoint folder lies under a regular file: every save fails,
        // training goes on to the end.
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(SshdFixture::writeFile(tmp.filePath(QStringLiteral("file")), "not a folder\n"), QString());
        QCOMPARE(writeTinyPlan(plan, 1, 2, 12, tmp.filePath(QStringLiteral("file/ckpt")), 5), QString());
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(h.prepare(localConfig(plan)), QString());
        h.start();
        QVERIFY(h.waitFinished(60000));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QCOMPARE(o.status, store::RunStatus::Completed);
        QCOMPARE(o.stepsDone, 12);
        QVERIFY2(o.failedCheckpoints >= 2, qPrintable(o.reason));
        QVERIFY2(o.reason.startsWith(QStringLiteral("%1 checkpoints failed (step 5: ").arg(o.failedCheckpoints)), qPrintable(o.reason));
        const auto run = h.closeAndReadRun();
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("completed"));
        QCOMPARE(run->reason, o.reason);
    }
};

QTEST_GUILESS_MAIN(LauncherLocal)
#include "tst_launcher_local.moc"
