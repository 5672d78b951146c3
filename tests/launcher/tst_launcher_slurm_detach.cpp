// Detached Slurm runs end to end (docs/launcher.md#detached-runs) on the
// one-node Slurm cluster of support/slurm_cluster.sh: the real CLI submits a
// batch job whose script is shardbench-supervise, which starts the real core's
// ranks as steps of the job.
// - jobOutlivesTheCli: the CLI killed with SIGKILL while it follows; the job
//   stays in squeue, and attaching stores every line of the run directory
//   once, and the batch script.
// - killedRankRestartsInsideTheJob: a rank killed with SIGKILL restarts inside
//   the job from the newest checkpoint.
// - twoRunsAtOnceThenStop: two runs on one node get distinct ports; one
//   completes, `stop` cancels the other and its job goes.
// - killAndSlurmsOwnEnd: `stop --kill` of one run (cancelled) and `scancel` of
//   another's job by hand (failed, saying Slurm ended it).
// - fromInsideAnAllocation: a run launched from inside `salloc` is a job of
//   its own. queuedJobIsWithdrawn: `cancelled`, Slurm's word for it.
// - hostileValuesNeverReachTheJob: nothing from a plan, a name or an option
//   runs in the batch job.
// - badInputIsExplained: `sbatch` refusing the job, no `sbatch` on PATH, a job
//   id Slurm does not know: a sentence and exit 1.
// Skipped when slurm-wlm is not installed or the suite is not root.
#include "launcher_test_support.hpp"
#include "../run_store_fixture.hpp"
#include "../safe_signal.hpp"
#include "run_dir_checks.hpp"
#include "slurm_test_cluster.hpp"

#include "launch/detach/attach_target.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sb;
using namespace sb::test;
using namespace sb::store::test;

namespace {

CliResult cli(const QStringList& args, int timeoutMs = 180000) { return runCli(args, timeoutMs); }

launch::AttachTarget targetOf(const QString& db, qint64 runId)
{
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
    auto run = reader ? reader->run(runId) : std::nullopt;
    launch::AttachTarget t;
    if (run) t = launch::AttachTarget::fromJson(run->attachJson).valueOr(t);
    return t;
}

bool jobQueued(qint64 job) { return queuedJobIds().contains(QString::number(job)); }

} // namespace

// Long enough that the job still trains when the CLI, which polls a queued
// job, first reports a step (120 steps ran out before that).
constexpr int kOutliveSteps = 2000;
// Long enough that the rank killed after the first checkpoint is killed
// mid-run: with 100 steps the run had sometimes written its last checkpoint
// by then, and the restart resumed from it with no step left to run.
constexpr int kRestartSteps = 2000;

class LauncherSlurmDetach : public QObject {
    Q_OBJECT
    SlurmTestCluster cluster_;
    QTemporaryDir tmp_;

    QString plan(const QString& name, int steps, const QString& ckpt = {}, int interval = 0)
    {
        const QString path = tmp_.filePath(name);
        return writeTinyPlan(path, 1, 2, steps, ckpt, interval).isEmpty() ? path : QString();
    }

    QStringList runArgs(const QString& planPath, const QString& db, const QString& name)
    {
        return {QStringLiteral("run"), planPath, QStringLiteral("--slurm"), QStringLiteral("--detach"), QStringLiteral("--db"), db,
                QStringLiteral("--name"), name, QStringLiteral("--workdir"), tmp_.path(), QStringLiteral("--env"),
                QStringLiteral("SB_THREADS=1")};
    }

    // Submits without following; returns the run id.
    qint64 submit(const QString& planPath, const QString& db, const QString& name, const QStringList& extra = {})
    {
        const CliResult r = cli(runArgs(planPath, db, name) + QStringList{QStringLiteral("--no-follow")} + extra);
        if (r.code != 0) qWarning("%s", qPrintable(describe(r)));
        return r.code == 0 ? r.out.trimmed().toLongLong() : -1;
    }

    // Two runs whose jobs share the one node of two CPUs at once.
    std::pair<qint64, qint64> submitTwo(const QString& db, const QString& first, int firstSteps, const QString& second, int secondSteps)
    {
        const QStringList share = {QStringLiteral("--slurm-arg=--oversubscribe")};
        const qint64 a = submit(plan(first + QStringLiteral(".json"), firstSteps), db, first, share);
        return {a, submit(plan(second + QStringLiteral(".json"), secondSteps), db, second, share)};
    }

    static void expectJobGone(qint64 job)
    {
        QVERIFY2(waitFor([&] { return !jobQueued(job); }, 30000), qPrintable(queuedJobIds().join(QLatin1Char(','))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = SlurmTestCluster::skipReason(); !why.isEmpty()) QSKIP(qPrintable(why));
        QVERIFY2(QFile::exists(binDir() + QStringLiteral("/shardbench-supervise")), "shardbench-supervise is not built");
        QVERIFY(tmp_.isValid());
        QCOMPARE(cluster_.start(), QString());
    }

    void cleanupTestCase() { cluster_.stop(); }

    // The CLI killed with SIGKILL while it follows: the job runs on (squeue
    // lists it); attaching later stores every line of the run directory once.
    void jobOutlivesTheCli()
    {
        const QString db = tmp_.filePath(QStringLiteral("outlive.sqlite"));
        QProcess run;
        dieWithParent(run, SIGKILL);
        run.start(cliPath(), runArgs(plan(QStringLiteral("outlive.json"), kOutliveSteps), db, QStringLiteral("sb outlive")));
        QByteArray err;
        QVERIFY2(readStderrUntil(run, &err, "step ", 120000), err.constData());
        // Queued when the follower first asked Slurm (no state.json yet, and that
        // is no error), or already running: the job may start before that.
        QVERIFY2(err.contains("queued: Slurm job") || err.contains("run 1: running"), err.constData());
        QVERIFY2(!err.contains("error"), err.constData());
        QVERIFY2(sb::test::signalProcess(run.processId(), SIGKILL) == 0,
                 QByteArray(QByteArray("the CLI ended before it could be killed: ") + err + run.readAllStandardError()).constData());
        run.waitForFinished(5000);
        const launch::AttachTarget t = targetOf(db, 1);
        QCOMPARE(t.transport, launch::AttachTarget::Transport::Slurm);
        QVERIFY(jobQueued(t.slurmJob));
        QVERIFY(queuedJobNames().contains(QStringLiteral("sb outlive")));
        QVERIFY2(waitFor([&] { return statusOf(t.runDir) == QLatin1String("completed"); }, 240000), qPrintable(statusOf(t.runDir)));
        QCOMPARE(countDir(t.runDir).maxStep, kOutliveSteps);

        const CliResult a = cli({QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), db});
        QVERIFY2(a.code == 0 && a.out.contains(QStringLiteral("completed, %1 steps").arg(kOutliveSteps)), qPrintable(describe(a)));
        expectStoreMatchesDir(db, 1, t.runDir, 1); // + the batch script
        // The script is in the run directory and in the store, and says what it is.
        QFile script(t.runDir + QStringLiteral("/job.sbatch"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QByteArray text = script.readAll();
        QVERIFY2(text.contains("#SBATCH --ntasks-per-node=2") && text.contains("start") && text.contains("--foreground"), text.constData());
        const CliResult logs = cli({QStringLiteral("logs"), QStringLiteral("1"), QStringLiteral("--db"), db, QStringLiteral("--launcher")});
        QVERIFY2(logs.out.contains(QLatin1String("#SBATCH --job-name=\"sb outlive\"")), qPrintable(describe(logs)));
        // Ranks ran as steps of the job, on the node the job got; the store names it.
        const QJsonArray ranks = stateOf(t.runDir).value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.at(1).toObject().value(QStringLiteral("host")).toString(), shortHostName());
        QString error;
        auto readerOpened = store::RunReader::open(db);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        QCOMPARE(reader->run(1)->hosts, QStringList{shortHostName() + QStringLiteral(" slots=2")});
        expectJobGone(t.slurmJob);
        const auto left = waitUntilNoneMention(t.runDir.toUtf8(), 10000);
        QVERIFY2(left.isEmpty(), qPrintable(describe(left)));
    }

    // The PyTorch engine in a detached Slurm run: the job's supervisor starts
    // each rank as a step running the plan's exported script (train.py in the
    // run directory) with torchrun's variables from the spec; followed to its end.
    void aPytorchRunInTheJob()
    {
        if (qEnvironmentVariable("SB_PYTHON").isEmpty()) QSKIP("SB_PYTHON is not set (ctest sets it)");
        const QString db = tmp_.filePath(QStringLiteral("pytorch.sqlite"));
        const CliResult r = cli(runArgs(plan(QStringLiteral("pytorch.json"), 4), db, QStringLiteral("sb pytorch")) +
                                    QStringList{QStringLiteral("--engine"), QStringLiteral("pytorch"), QStringLiteral("--python"),
                                                qEnvironmentVariable("SB_PYTHON")},
                                300000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const launch::AttachTarget t = targetOf(db, 1);
        QCOMPARE(statusOf(t.runDir), QStringLiteral("completed"));
        QVERIFY(QFile::exists(t.runDir + QStringLiteral("/train.py")));
        QCOMPARE(countDir(t.runDir).maxStep, 4);
        QString error;
        auto readerOpened = store::RunReader::open(db);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        int steps = 0;
        reader->forEachStepRow(1, -1, [&](const store::MetricRow&) { ++steps; });
        QCOMPARE(steps, 8);
        expectJobGone(t.slurmJob);
    }

    // A rank killed while nobody is attached: the supervisor restarts the
    // ranks inside the same job from the newest checkpoint.
    void killedRankRestartsInsideTheJob()
    {
        const QString db = tmp_.filePath(QStringLiteral("restart.sqlite"));
        const QString p = plan(QStringLiteral("restart.json"), kRestartSteps, tmp_.filePath(QStringLiteral("ckpt")), 20);
        const qint64 id = submit(p, db, QStringLiteral("sb restart"), {QStringLiteral("--max-restarts"), QStringLiteral("1")});
        QVERIFY(id > 0);
        const launch::AttachTarget t = targetOf(db, id);
        QVERIFY(waitFor([&] { return stateOf(t.runDir).contains(QStringLiteral("latest_checkpoint")); }, 180000));
        const qint64 pid = static_cast<qint64>(stateOf(t.runDir).value(QStringLiteral("ranks")).toArray().at(1).toObject().value(QStringLiteral("pid")).toDouble());
        QVERIFY(pid > 0); // the core's pid on its node, reported by the step's wrapper
        QCOMPARE(sb::test::signalProcess(pid, SIGKILL), 0);
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(t.runDir)); }, 240000), qPrintable(statusOf(t.runDir)));
        QCOMPARE(statusOf(t.runDir), QStringLiteral("completed"));

        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 0, qPrintable(describe(a)));
        expectStoreMatchesDir(db, id, t.runDir, 1);
        QString error;
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        QVERIFY(reader);
        const QList<store::AttemptRecord> attempts = reader->attempts(id);
        QCOMPARE(attempts.size(), 2);
        QVERIFY2(attempts[0].reason.contains(QLatin1String("rank 1")) && attempts[0].reason.contains(QLatin1String("SIGKILL")),
                 qPrintable(attempts[0].reason));
        QVERIFY2(attempts[1].resumeDir.contains(QLatin1String("step-")), qPrintable(attempts[1].resumeDir));
        int firstResumed = 1 << 30;
        reader->forEachStepRow(id, 0, [&](const store::MetricRow& r) {
            if (r.m.attempt == 1) firstResumed = std::min(firstResumed, r.m.step);
        });
        QVERIFY2(firstResumed > 1 && firstResumed < kRestartSteps && firstResumed % 20 == 1, qPrintable(QString::number(firstResumed)));
        expectJobGone(t.slurmJob);
    }

    // Two runs at once share the node without meeting on a port; stop
    // cancels one (the supervisor records it) and its job goes away.
    void twoRunsAtOnceThenStop()
    {
        const QString db = tmp_.filePath(QStringLiteral("two.sqlite"));
        const auto [longRun, shortRun] = submitTwo(db, QStringLiteral("sb long"), 1000000, QStringLiteral("sb short"), 40);
        QVERIFY(longRun > 0 && shortRun > 0);
        const launch::AttachTarget a = targetOf(db, longRun), b = targetOf(db, shortRun);
        auto port = [](const QString& dir) {
            return stateOf(dir).value(QStringLiteral("attempts")).toArray().at(0).toObject().value(QStringLiteral("master_port")).toInt();
        };
        QVERIFY(waitFor([&] { return port(a.runDir) > 0 && port(b.runDir) > 0; }, 120000));
        QVERIFY2(port(a.runDir) != port(b.runDir), qPrintable(QString::number(port(a.runDir))));
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(b.runDir)); }, 240000), qPrintable(statusOf(b.runDir)));
        QCOMPARE(statusOf(b.runDir), QStringLiteral("completed"));
        QCOMPARE(statusOf(a.runDir), QStringLiteral("running")); // trained alongside

        const CliResult stop = cli({QStringLiteral("stop"), QString::number(longRun), QStringLiteral("--db"), db});
        // What the supervisor recorded, read from its state.json through core/protocol.
        QVERIFY2(stop.code == 0 && stop.err.contains(QLatin1String("stopped (cancelled; ")), qPrintable(describe(stop)));
        QCOMPARE(statusOf(a.runDir), QStringLiteral("cancelled"));
        QCOMPARE(countStore(db, longRun).status, QStringLiteral("cancelled"));
        expectJobGone(a.slurmJob);
        const CliResult runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--refresh"), QStringLiteral("--json")});
        QVERIFY2(runs.code == 0, qPrintable(describe(runs)));
        QCOMPARE(countStore(db, shortRun).status, QStringLiteral("completed"));
        const auto left = waitUntilNoneMention(a.runDir.toUtf8(), 15000);
        QVERIFY2(left.isEmpty(), qPrintable(describe(left)));
    }

    // stop --kill: the supervisor stops the ranks without the grace and
    // records "cancelled". Slurm ending a job itself (an scancel of the job,
    // as its time limit or a preemption would): the run fails, saying so.
    void killAndSlurmsOwnEnd()
    {
        const QString db = tmp_.filePath(QStringLiteral("ends.sqlite"));
        const auto [killed, ended] = submitTwo(db, QStringLiteral("sb killed"), 1000000, QStringLiteral("sb ended"), 1000000);
        QVERIFY(killed > 0 && ended > 0);
        const launch::AttachTarget a = targetOf(db, killed), b = targetOf(db, ended);
        QVERIFY(waitFor([&] { return countDir(a.runDir).steps > 0 && countDir(b.runDir).steps > 0; }, 120000));
        const CliResult stop = cli({QStringLiteral("stop"), QString::number(killed), QStringLiteral("--db"), db, QStringLiteral("--kill")});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QCOMPARE(statusOf(a.runDir), QStringLiteral("cancelled"));
        expectJobGone(a.slurmJob);
        QCOMPARE(runProgram(QStringLiteral("scancel"), {QString::number(b.slurmJob)}), 0);
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(b.runDir)); }, 60000), qPrintable(statusOf(b.runDir)));
        const CliResult att = cli({QStringLiteral("attach"), QString::number(ended), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(att.code == 1 && att.out.contains(QLatin1String("failed: Slurm ended the job (SIGTERM")), qPrintable(describe(att)));
        expectJobGone(b.slurmJob);
        for (const QString& dir : {a.runDir, b.runDir}) {
            const auto left = waitUntilNoneMention(dir.toUtf8(), 15000);
            QVERIFY2(left.isEmpty(), qPrintable(describe(left)));
        }
    }

    // From inside an allocation (salloc): the run is a job of its own, whose
    // steps never see the allocation's SLURM_* variables.
    void fromInsideAnAllocation()
    {
        const QString db = tmp_.filePath(QStringLiteral("alloc.sqlite"));
        QByteArray out;
        const QStringList args = QStringList{QStringLiteral("--oversubscribe"), QStringLiteral("--ntasks=1"), QStringLiteral("--job-name=sb outer"),
                                             cliPath()} +
                                 runArgs(plan(QStringLiteral("alloc.json"), 20), db, QStringLiteral("sb inner")) +
                                 QStringList{QStringLiteral("--slurm-arg=--oversubscribe")};
        const int code = runProgram(QStringLiteral("salloc"), args, &out, 180000);
        QVERIFY2(code == 0 && out.contains("completed, 20 steps"), out.constData());
        const launch::AttachTarget t = targetOf(db, 1);
        const QByteArray inner = "Granted job allocation " + QByteArray::number(t.slurmJob);
        QVERIFY2(out.contains("Granted job allocation ") && !out.contains(inner), out.constData());
        QCOMPARE(statusOf(t.runDir), QStringLiteral("completed"));
    }

    // A job cancelled while it waits in the queue: stop withdraws it, and the
    // run (which never wrote a state) ends cancelled with Slurm's word for it.
    void queuedJobIsWithdrawn()
    {
        const QString db = tmp_.filePath(QStringLiteral("queued.sqlite"));
        const qint64 id = submit(plan(QStringLiteral("queued.json"), 10), db, QStringLiteral("sb queued"),
                                 {QStringLiteral("--slurm-arg=--begin=now+1hour")});
        QVERIFY(id > 0);
        const launch::AttachTarget t = targetOf(db, id);
        CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 0 && a.out.contains(QLatin1String("starting: queued: Slurm job")), qPrintable(describe(a)));
        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0 && stop.err.contains(QLatin1String("withdrew")), qPrintable(describe(stop)));
        QCOMPARE(countStore(db, id).status, QStringLiteral("cancelled"));
        QVERIFY2(countStore(db, id).reason.contains(QLatin1String("ended CANCELLED")), qPrintable(countStore(db, id).reason));
        expectJobGone(t.slurmJob);
    }

    // Nothing from a plan, a name or an option runs in the batch job. A
    // preset with a newline (it ended the script's comment, and its next line
    // ran on the node) and what sbatch cannot read back are refused as bad
    // input, before anything is written or submitted; hostile values sbatch
    // can carry reach Slurm exactly as given, and nothing of them runs.
    void hostileValuesNeverReachTheJob()
    {
        const QString db = tmp_.filePath(QStringLiteral("hostile.sqlite"));
        const QString markers = tmp_.filePath(QStringLiteral("hostile-markers"));
        QVERIFY(QDir().mkpath(markers));
        const QString touch = QStringLiteral("touch ") + markers;
        const QString planPath = plan(QStringLiteral("hostile.json"), 5);
        QFile f(planPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray json = f.readAll();
        f.close();
        QVERIFY(json.contains("\"preset\": \"transformer\""));
        json.replace("\"preset\": \"transformer\"", QByteArray("\"preset\": \"transformer\\n" + touch.toUtf8() + "/m1\\n#\""));
        const QString injected = tmp_.filePath(QStringLiteral("hostile-preset.json"));
        QCOMPARE(SshdFixture::writeFile(injected, json), QString());
        const int jobsBefore = static_cast<int>(queuedJobIds().size());

        const CliResult preset = cli(runArgs(injected, db, QStringLiteral("sb hostile")) + QStringList{QStringLiteral("--no-follow")});
        QVERIFY2(preset.code == 2 && preset.err.contains(QLatin1String("$.model.preset")) &&
                     preset.err.contains(QLatin1String("preset contains a control character (\\n)")),
                 qPrintable(describe(preset)));
        const CliResult quote = cli(runArgs(planPath, db, QStringLiteral("sb hostile")) +
                                    QStringList{QStringLiteral("--no-follow"), QStringLiteral("--slurm-arg=--comment=a\"b")});
        QVERIFY2(quote.code == 2 && quote.err.contains(QLatin1String("--slurm-arg \"--comment=a\"b\" cannot be written in a batch script")),
                 qPrintable(describe(quote)));
        const CliResult requeue = cli(runArgs(planPath, db, QStringLiteral("sb hostile")) +
                                      QStringList{QStringLiteral("--no-follow"), QStringLiteral("--slurm-arg=--requeue")});
        QVERIFY2(requeue.code == 2 && requeue.err.contains(QLatin1String("shardbench sets --no-requeue itself")), qPrintable(describe(requeue)));
        QCOMPARE(static_cast<int>(queuedJobIds().size()), jobsBefore); // nothing was submitted
        QVERIFY(!QFileInfo::exists(db) || countStore(db, 1).status.isEmpty()); // nor recorded

        // What sbatch can carry: quotes, #, $( ), %, backslashes, in the name, an option and the run root.
        const QString name = QStringLiteral("sb 'x' #y $(") + touch + QStringLiteral("/m2) %j \\");
        const QString comment = QStringLiteral("$(") + touch + QStringLiteral("/m3) `") + touch + QStringLiteral("/m4` 'q' #c \\ %x");
        const QString root = tmp_.filePath(QStringLiteral("runs 'r' #z %j $(") + touch + QStringLiteral("/m5)"));
        const CliResult r = cli(runArgs(planPath, db, name) + QStringList{QStringLiteral("--slurm-arg=--comment=") + comment,
                                                                          QStringLiteral("--run-root"), root});
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("completed, 5 steps")), qPrintable(describe(r)));
        QVERIFY2(QDir(markers).isEmpty(), "a value ran in the batch job");
        const launch::AttachTarget t = targetOf(db, 1);
        QVERIFY(t.slurmJob > 0);
        QCOMPARE(QFileInfo(t.runDir).absolutePath(), QDir(root).absolutePath());
        // Slurm read each value back as given: the job's name and comment, its output file in the run directory.
        QVERIFY2(QFileInfo::exists(t.runDir + QStringLiteral("/slurm-%1.out").arg(t.slurmJob)),
                 qPrintable(QDir(t.runDir).entryList().join(u' ')));
        QByteArray shown;
        QCOMPARE(runProgram(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), QString::number(t.slurmJob)}, &shown), 0);
        const QString job = QString::fromUtf8(shown);
        for (const QString& field : QStringList{QStringLiteral("JobName=") + name, QStringLiteral("Comment=") + comment, QStringLiteral("WorkDir=") + t.runDir})
            QVERIFY2(job.contains(field + u'\n') || job.contains(field + u' '), qPrintable(field + QStringLiteral(" in:\n") + job));
    }

    // Bad input: sbatch missing or refusing the job; a run whose job Slurm does not know.
    void badInputIsExplained()
    {
        const QString db = tmp_.filePath(QStringLiteral("bad.sqlite"));
        const CliResult refused = cli(runArgs(plan(QStringLiteral("bad.json"), 10), db, QStringLiteral("sb bad")) +
                                      QStringList{QStringLiteral("--no-follow"), QStringLiteral("--partition"), QStringLiteral("nowhere")});
        QVERIFY2(refused.code == 1 && refused.err.contains(QLatin1String("sbatch refused the job")) &&
                     refused.err.contains(QLatin1String("partition")),
                 qPrintable(describe(refused)));
        const CliResult noSupervisor = cli(runArgs(plan(QStringLiteral("bad.json"), 10), db, QStringLiteral("sb bad")) +
                                           QStringList{QStringLiteral("--no-follow"), QStringLiteral("--supervise"), QStringLiteral("/nowhere/sup")});
        QVERIFY2(noSupervisor.code == 1 && noSupervisor.err.contains(QLatin1String("shardbench-supervise not found at /nowhere/sup")),
                 qPrintable(describe(noSupervisor)));
        // srun there (the pre-flight asks for it), sbatch not.
        const QString bin = tmp_.filePath(QStringLiteral("srun-only"));
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(QFile::link(QStandardPaths::findExecutable(QStringLiteral("srun")), bin + QStringLiteral("/srun")));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), bin);
        p.setProcessEnvironment(env);
        p.start(cliPath(), runArgs(plan(QStringLiteral("bad.json"), 10), db, QStringLiteral("sb bad")) + QStringList{QStringLiteral("--no-follow")});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains(QLatin1String("cannot run sbatch")), qPrintable(err));
        QCOMPARE(countStore(db, 3).status, QStringLiteral("failed"));

        // A record whose job id Slurm never heard of, and no state in its folder.
        launch::AttachTarget t;
        t.transport = launch::AttachTarget::Transport::Slurm;
        t.runDir = tmp_.filePath(QStringLiteral("unknown-job"));
        t.supervise = binDir() + QStringLiteral("/shardbench-supervise");
        t.slurmJob = 987654321;
        QVERIFY(QDir().mkpath(t.runDir));
        store::NewRun row = bareRun(QStringLiteral("unknown-job"), QStringLiteral("slurm"));
        row.runDir = t.runDir;
        row.attachJson = t.toJson();
        auto [store, id, error] = storeWithRun(db, row);
        QVERIFY2(store, qPrintable(error));
        QVERIFY(id > 0 && store->flush());
        store.reset();
        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 1 && stop.err.contains(QLatin1String("Slurm job 987654321 is unknown to Slurm")), qPrintable(describe(stop)));
        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(a.code == 1 && a.out.contains(QLatin1String("Slurm job 987654321 is unknown to Slurm")), qPrintable(describe(a)));
        QCOMPARE(countStore(db, id).status, QStringLiteral("failed"));
    }
};

QTEST_GUILESS_MAIN(LauncherSlurmDetach)
#include "tst_launcher_slurm_detach.moc"
