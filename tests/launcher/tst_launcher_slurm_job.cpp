// The pieces of a detached Slurm run that need no cluster: what squeue,
// sacct and sbatch print, read into job states and ids; the batch script
// written for a plan; a run that left no final state reconciled with its job.
#include "launcher_test_support.hpp"

#include "launch/detach/slurm_follow_stream.hpp"
#include "launch/prepared_launch.hpp"
#include "launch/slurm/sbatch_script.hpp"
#include "launch/slurm/slurm_job.hpp"
#include "protocol/follow_records.hpp"

#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::launch;
using Phase = SlurmJobState::Phase;

Q_DECLARE_METATYPE(sb::launch::SlurmJobState::Phase)

class LauncherSlurmJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void squeueLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<Phase>("phase");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("batchHost");
        QTest::newRow("pending") << "PENDING|Resources|(null)" << Phase::Queued << "Resources" << "";
        QTest::newRow("held") << "PENDING|JobHeldUser|n/a" << Phase::Queued << "JobHeldUser" << "";
        QTest::newRow("running") << "RUNNING|None|gpu07" << Phase::Running << "" << "gpu07";
        QTest::newRow("completing") << "COMPLETING|None|gpu07" << Phase::Ended << "" << "gpu07";
        QTest::newRow("timeout") << "TIMEOUT|TimeLimit|gpu07" << Phase::Ended << "TimeLimit" << "gpu07";
        QTest::newRow("sacct cancelled") << "CANCELLED by 0|None" << Phase::Ended << "" << "";
        QTest::newRow("empty") << "" << Phase::Unknown << "" << "";
    }

    void squeueLines()
    {
        QFETCH(QString, line);
        const SlurmJobState s = parseSqueueLine(line);
        QTEST(s.phase, "phase");
        QTEST(s.reason, "reason");
        QTEST(s.batchHost, "batchHost");
    }

    void sbatchJobIds()
    {
        QCOMPARE(parseSbatchJobId("4242\n"), 4242);
        QCOMPARE(parseSbatchJobId("4242;cluster-a\n"), 4242);
        QCOMPARE(parseSbatchJobId("sbatch: error: invalid partition\n"), -1);
        QCOMPARE(parseSbatchJobId(""), -1);
    }

    void describesTheJob()
    {
        SlurmJobState s = parseSqueueLine(QStringLiteral("PENDING|Priority|(null)"));
        QCOMPARE(s.describe(12), QStringLiteral("Slurm job 12 is PENDING (Priority)"));
        s.phase = Phase::NotFound;
        QCOMPARE(s.describe(12), QStringLiteral("Slurm job 12 is unknown to Slurm (squeue and sacct)"));
    }

    void reconcilesWithTheJob()
    {
        sb::protocol::RunState running;
        running.status = "running";
        running.supervisor = sb::protocol::StateSupervisor{7, "n1"};
        sb::protocol::RunState s = reconciledState(running, 12, parseSqueueLine(QStringLiteral("TIMEOUT|TimeLimit|n1")), QStringLiteral("/r"));
        QCOMPARE(s.status, std::string("failed"));
        QCOMPARE(QString::fromStdString(s.reason.text),
                 QStringLiteral("Slurm job 12 ended TIMEOUT (TimeLimit) and the supervisor recorded no final state (see /r/slurm-12.out)"));
        QCOMPARE(s.reason.code, std::string("slurm.ended_no_state"));
        QVERIFY(s.endedAt && *s.endedAt > 0);
        s = reconciledState({}, 12, parseSqueueLine(QStringLiteral("CANCELLED by 0|None")), QStringLiteral("/r"));
        QCOMPARE(s.status, std::string("cancelled"));
        QCOMPARE(QString::fromStdString(s.reason.text), QStringLiteral("Slurm job 12 ended CANCELLED before the supervisor started"));
        // What the stream sends reads back as the same state.
        const QByteArray record = stateRecord(s, false);
        const std::optional<sb::protocol::FollowRecord> sent = sb::protocol::parseFollowRecord(record.toStdString());
        QVERIFY(sent && sent->kind == sb::protocol::FollowRecord::Kind::State && sent->alive == false);
        const auto back = sb::protocol::readRunState(sent->state, "state.json", "update");
        QVERIFY(back.ok());
        QCOMPARE(back.value().status, std::string("cancelled"));
        QCOMPARE(back.value().reason.text, s.reason.text);
    }

    void batchScriptForAPlan()
    {
        QTemporaryDir tmp;
        RunConfig c;
        c.planPath = tmp.filePath(QStringLiteral("plan.json"));
        c.name = QStringLiteral("llama run");
        SlurmTarget slurm;
        slurm.corePath = QStringLiteral("/shared/bin/shardbench-core");
        slurm.options.partition = QStringLiteral("gpu");
        slurm.options.timeLimit = QStringLiteral("02:00:00");
        slurm.options.extraArgs << QStringLiteral("--constraint=a100");
        c.target = slurm;
        c.maxRestarts = 2;
        QCOMPARE(test::writeTinyPlan(c.planPath, 2, 2, 10), QString());
        const PrepareResult p = prepareLaunch(c);
        if (!p.ok() && runConfigMessages(p.errors).join(QString()).contains(QLatin1String("srun is not on PATH"))) QSKIP("Slurm's srun is not installed");
        QVERIFY2(p.ok(), qPrintable(runConfigMessages(p.errors).join(QLatin1Char('\n'))));
        const Result<QString> batch = sbatchScript(p.launch, QStringLiteral("/shared/w/.shardbench/runs/R 1"), QStringLiteral("/shared/bin/shardbench-supervise"));
        QCOMPARE(qtMessage(batch), QString());
        const QString script = batch.value();
        QVERIFY(script.startsWith(QLatin1String("#!/bin/sh\n# shardbench detached run ")));
        for (const char* line : {"#SBATCH --job-name=\"llama run\"\n", "#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=2\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --time=02:00:00\n", "#SBATCH --no-requeue\n",
                                 "#SBATCH --output=\"/shared/w/.shardbench/runs/R 1/slurm-%j.out\"\n", "#SBATCH --constraint=a100\n",
                                 "up to 2 time(s)",
                                 "\nexec '/shared/bin/shardbench-supervise' 'start' '/shared/w/.shardbench/runs/R 1' '--foreground'\n"})
            QVERIFY2(script.contains(QLatin1String(line)), qPrintable(script));
        // What a #SBATCH line cannot carry is refused, not mangled.
        const Result<QString> refused = sbatchScript(p.launch, QStringLiteral("/shared/a\"b"), QStringLiteral("/x"));
        QVERIFY2(qtMessage(refused).contains(QLatin1String("cannot be written in a batch script")), qPrintable(qtMessage(refused)));
    }
};

QTEST_GUILESS_MAIN(LauncherSlurmJob)
#include "tst_launcher_slurm_job.moc"
