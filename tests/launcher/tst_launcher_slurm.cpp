// Slurm runs of the real shardbench-core on a real one-node Slurm cluster
// (slurmctld + slurmd on this machine, started by support/slurm_cluster.sh
// in a temporary folder on free ports): a run completes and is recorded per
// rank with the node Slurm chose; a rank killed with SIGKILL fails the run
// naming it; a cancel, a forced stop (scancel) and Ctrl-C to the CLI end it
// cancelled; a queued run reports its wait; a bad partition is a clear,
// quick failure. After each run no process and no job of it is left.
// Skipped when slurm-wlm is not installed or the suite is not root.
#include "launcher_test_support.hpp"
#include "../safe_signal.hpp"
#include "run_harness.hpp"
#include "slurm_test_cluster.hpp"

#include "store/run_reader.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace sb;
using namespace sb::test;

namespace {

void expectNothingLeft(const QString& uid, const QString& jobName)
{
    const auto left = waitUntilNoneMention(uid.toUtf8(), 3000);
    QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left behind:\n") + describe(left)));
    // A cancelled job stays "completing" while slurmd cleans up.
    QTRY_VERIFY2_WITH_TIMEOUT(!queuedJobNames().contains(jobName), qPrintable(queuedJobNames().join(QLatin1Char(','))), 15000);
}

} // namespace

class LauncherSlurm : public QObject {
    Q_OBJECT
    SlurmTestCluster cluster_;

    // A tiny 1 x 2 plan of `steps` steps in `tmp`, started through Slurm as
    // run `name` with `tmp` as its working folder. "" or why not.
    static QString startRun(RunHarness& h, const QTemporaryDir& tmp, const QString& name, int steps)
    {
        launch::RunConfig c;
        c.planPath = tmp.filePath(QStringLiteral("plan.json"));
        c.name = name;
        launch::SlurmTarget slurm;
        slurm.corePath = corePath();
        slurm.workdir = tmp.path();
        c.target = slurm;
        c.extraEnv.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
        if (QString e = writeTinyPlan(c.planPath, 1, 2, steps); !e.isEmpty()) return e;
        if (QString e = h.prepare(c); !e.isEmpty()) return e;
        h.start();
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = SlurmTestCluster::skipReason(); !why.isEmpty()) QSKIP(qPrintable(why));
        QVERIFY2(QFile::exists(corePath()), qPrintable(corePath()));
        QCOMPARE(cluster_.start(), QString());
    }

    void cleanupTestCase() { cluster_.stop(); }

    void completesAndRecordsEveryRank()
    {
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startRun(h, tmp, QStringLiteral("slurm completes"), 20), QString());
        QVERIFY2(h.waitFinished(60000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + QLatin1Char('\n') + h.progress.join(QLatin1Char('\n'))));
        QCOMPARE(o.stepsDone, 20);
        QCOMPARE(h.steps.size(), 40);
        QVERIFY2(h.progress.filter(QRegularExpression(QStringLiteral("^allocated job \\d+ on "))).size() == 1,
                 qPrintable(h.progress.join(QLatin1Char('\n'))));
        QCOMPARE(h.supervisor().hostOfRank(1), shortHostName());
        QVERIFY(h.pids.value(0) > 0 && h.pids.value(1) > 0); // from the hellos
        const QString uid = h.launch().uid;
        // The plan every node reads: a copy in the working folder.
        QFile copy(tmp.filePath(QStringLiteral(".shardbench/runs/%1/plan.json").arg(uid)));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), h.launch().planJson);
        const auto run = h.closeAndReadRun();
        expectNothingLeft(uid, QStringLiteral("slurm completes"));
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("completed"));
        QCOMPARE(run->backend, QStringLiteral("slurm"));
        QCOMPARE(run->hosts, QStringList{shortHostName() + QStringLiteral(" slots=2")});
        QCOMPARE(run->worldSize, 2);

        // Steps and events per rank.
        const qint64 id = run->id;
        QString err;
        auto readerOpened = store::RunReader::open(h.dbPath());
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        QCOMPARE(reader->series(id, store::Metric::Loss, 0).size(), 20);
        QCOMPARE(reader->series(id, store::Metric::Loss, 1).size(), 20);
        const auto hellos = reader->events(id, QStringLiteral("hello"));
        QCOMPARE(hellos.size(), 2);
        QSet<int> ranks;
        for (const auto& e : hellos) {
            const QJsonObject hello = QJsonDocument::fromJson(e.json).object();
            QCOMPARE(hello.value(QLatin1String("env")).toString(), QStringLiteral("slurm"));
            QCOMPARE(hello.value(QLatin1String("world")).toInt(), 2);
            ranks << e.rank;
        }
        QCOMPARE(ranks, (QSet<int>{0, 1}));
        QCOMPARE(reader->events(id, QStringLiteral("done")).size(), 2);
    }

    // The PyTorch engine through srun: every task is `python train.py` (the
    // plan's exported FSDP2 script, copied beside the plan in the working
    // folder) given torchrun's variables from its SLURM_* ones by a fixed shim.
    void aPytorchRunThroughSrun()
    {
        if (qEnvironmentVariable("SB_PYTHON").isEmpty()) QSKIP("SB_PYTHON is not set (ctest sets it)");
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        launch::RunConfig c;
        c.planPath = tmp.filePath(QStringLiteral("plan.json"));
        c.name = QStringLiteral("slurm pytorch");
        launch::SlurmTarget slurm;
        slurm.corePath = corePath();
        slurm.workdir = tmp.path();
        c.target = slurm;
        c.engine = launch::Engine::PyTorch;
        c.python = qEnvironmentVariable("SB_PYTHON");
        c.extraEnv.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        QCOMPARE(writeTinyPlan(c.planPath, 1, 2, 4), QString());
        QCOMPARE(h.prepare(c), QString());
        h.start();
        QVERIFY2(h.waitFinished(180000), qPrintable(h.progress.join(QLatin1Char('\n'))));
        const launch::RunOutcome& o = h.supervisor().outcome();
        QVERIFY2(o.status == store::RunStatus::Completed, qPrintable(o.reason + QLatin1Char('\n') + h.errors.join(QLatin1Char('\n'))));
        QCOMPARE(h.steps.size(), 8); // 4 steps x 2 ranks
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral(".shardbench/runs/%1/train.py").arg(h.launch().uid))));
        expectNothingLeft(h.launch().uid, QStringLiteral("slurm pytorch"));
    }

    void killedRankFailsTheRun()
    {
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startRun(h, tmp, QStringLiteral("slurm fails"), 1000000), QString());
        // The pid of the rank's hello, on this (the only) node.
        QCOMPARE(h.killRankWhenTraining(1, 3), QString());
        QVERIFY2(h.msFromStopToFinish < 5500, qPrintable(QStringLiteral("took %1 ms").arg(h.msFromStopToFinish)));
        QCOMPARE(h.blamesKilledRank(1), QString());
        QCOMPARE(h.supervisor().outcome().failingHost, shortHostName());
        const auto run = h.closeAndReadRun();
        expectNothingLeft(h.launch().uid, QStringLiteral("slurm fails"));
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("failed"));
        QCOMPARE(run->failingRank, 1);
        QCOMPARE(run->failingHost, shortHostName());
    }

    void cancelStopsTheStep()
    {
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startRun(h, tmp, QStringLiteral("slurm cancel"), 1000000), QString());
        QCOMPARE(h.stopWhenTraining(2, [&] { h.supervisor().cancel(); return QString(); }), QString());
        QVERIFY2(h.msFromStopToFinish < 5500, qPrintable(QString::number(h.msFromStopToFinish)));
        QCOMPARE(h.supervisor().outcome().status, store::RunStatus::Cancelled);
        for (const launch::RankExit& e : h.exits) // stopped by srun on our behalf
            QVERIFY2(e.stoppedByLauncher || e.kind == launch::RankExit::Exited, qPrintable(describeExit(e)));
        const auto run = h.closeAndReadRun();
        expectNothingLeft(h.launch().uid, QStringLiteral("slurm cancel"));
        QVERIFY(run);
        QCOMPARE(run->status, QStringLiteral("cancelled"));
        QCOMPARE(run->failingRank, -1);
    }

    void forcedStopCancelsTheJob()
    {
        // A second Ctrl-C: SIGKILL to srun, then scancel of its step and job.
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startRun(h, tmp, QStringLiteral("slurm kill"), 1000000), QString());
        QCOMPARE(h.stopWhenTraining(2, [&] {
            h.supervisor().cancel();
            h.supervisor().forceStop();
            return QString();
        }), QString());
        QCOMPARE(h.supervisor().outcome().status, store::RunStatus::Cancelled);
        QVERIFY2(!h.progress.filter(QStringLiteral("scancel --signal=KILL")).isEmpty(), qPrintable(h.progress.join(QLatin1Char('\n'))));
        h.closeStore();
        expectNothingLeft(h.launch().uid, QStringLiteral("slurm kill"));
    }

    void reportsTheWaitForResources()
    {
        // Another job holds the node: the run waits in the queue, then runs.
        QProcess blocker;
        dieWithParent(blocker, SIGTERM);
        blocker.start(QStringLiteral("srun"), {QStringLiteral("--exclusive"), QStringLiteral("--job-name=sb-blocker"),
                                               QStringLiteral("sleep"), QStringLiteral("3")});
        QVERIFY(blocker.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(queuedJobNames().contains(QStringLiteral("sb-blocker")), 10000);
        QTemporaryDir tmp;
        RunHarness h(tmp.filePath(QStringLiteral("runs.sqlite")));
        QCOMPARE(startRun(h, tmp, QStringLiteral("slurm queued"), 10), QString());
        QVERIFY(h.waitFinished(60000));
        blocker.waitForFinished(10000);
        const QString log = h.progress.join(QLatin1Char('\n'));
        QVERIFY2(h.supervisor().outcome().status == store::RunStatus::Completed, qPrintable(log));
        const qsizetype queued = log.indexOf(QLatin1String("queued: waiting for resources"));
        const qsizetype allocated = log.indexOf(QRegularExpression(QStringLiteral("allocated job \\d+")));
        QVERIFY2(queued >= 0 && allocated > queued, qPrintable(log));
    }

    void badPartitionFailsQuickly()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 10), QString());
        QProcess p;
        dieWithParent(p, SIGTERM);
        p.setWorkingDirectory(tmp.path());
        QElapsedTimer t;
        t.start();
        p.start(cliPath(), {QStringLiteral("run"), plan, QStringLiteral("--slurm"), QStringLiteral("--partition"),
                            QStringLiteral("no-such-partition"), QStringLiteral("--db"), tmp.filePath(QStringLiteral("runs.sqlite"))});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput()), err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 1, qPrintable(out + err));
        QVERIFY2(out.contains(QLatin1String("failed: launch failed: ")) && out.contains(QLatin1String("Invalid partition name")),
                 qPrintable(out));
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        // Strict arguments: refused before anything starts.
        p.start(cliPath(), {QStringLiteral("run"), plan, QStringLiteral("--slurm"), QStringLiteral("--slurm-arg=--ntasks=9"),
                            QStringLiteral("--db"), tmp.filePath(QStringLiteral("runs.sqlite"))});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("shardbench sets --ntasks itself")));
    }

    void ctrlCToTheCliCancels()
    {
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("long.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 1000000), QString());
        const QString db = tmp.filePath(QStringLiteral("runs.sqlite"));
        QProcess p;
        dieWithParent(p, SIGTERM);
        p.setWorkingDirectory(tmp.path());
        p.start(cliPath(), {QStringLiteral("run"), plan, QStringLiteral("--slurm"), QStringLiteral("--db"), db,
                            QStringLiteral("--name"), QStringLiteral("slurm ctrl-c"), QStringLiteral("--time"), QStringLiteral("5"),
                            QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")});
        QVERIFY(p.waitForStarted());
        static const QRegularExpression uidRe(QStringLiteral("run \\d+ \\(([0-9a-f-]+)\\)"));
        QString uid;
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (uid.isEmpty() && t.elapsed() < 30000) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
            if (const auto m = uidRe.match(QString::fromUtf8(err)); m.hasMatch()) uid = m.captured(1);
        }
        QVERIFY2(!uid.isEmpty(), err.constData());
        // Both ranks train (their hellos are in; the store has their steps soon after).
        QTRY_VERIFY_WITH_TIMEOUT(processesMentioning(uid.toUtf8()).size() >= 3, 30000); // srun and two cores
        QTest::qWait(1500);
        sb::test::signalProcess(p.processId(), SIGINT);
        QElapsedTimer sinceInterrupt;
        sinceInterrupt.start();
        QVERIFY(p.waitForFinished(20000));
        QVERIFY2(sinceInterrupt.elapsed() < 6000, qPrintable(QString::number(sinceInterrupt.elapsed())));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        expectNothingLeft(uid, QStringLiteral("slurm ctrl-c"));
        QByteArray show;
        runProgram(cliPath(), {QStringLiteral("show"), uid, QStringLiteral("--db"), db}, &show);
        QVERIFY2(show.contains("status       cancelled") && show.contains(QByteArray(QByteArray("slurm, world 2: ") + shortHostName().toUtf8())), show.constData());
    }
};

QTEST_GUILESS_MAIN(LauncherSlurm)
#include "tst_launcher_slurm.moc"
