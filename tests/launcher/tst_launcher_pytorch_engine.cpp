// The PyTorch engine (docs/launcher.md, "Engines"): `run --engine pytorch`
// starts every rank as `python train.py`, the plan's exported FSDP2 script
// under the project's real PyTorch 2.x ($SB_PYTHON), on the CPU with Gloo,
// W=2. Its lines are the core's protocol, so the store, `show` and `attach`
// read it as they read the core.
// - theExportedScriptTrainsAsTheCoreDoes: supervised, every step of every
//   rank in the store once; the losses equal the core's run of the same plan
//   within 1e-5 (measured: equal to the digits the store keeps); the
//   script's DCP checkpoints are recorded in the run's own folder
//   CHECKPOINT_DIR/<run uid>; the run row (and `show`) names the engine; a
//   second run of the same plan trains from step 1 (it used to resume the
//   first run's last checkpoint and train nothing).
// - aDcpCheckpointRestoresAtAnotherWorldSize: `restore` of the script's DCP
//   checkpoint at step 3 of 2 ranks, at 1 rank: the plan, engine and Python
//   come from the run that saved it, the script starts from it
//   (SHARDBENCH_RESUME_FROM) and its losses of steps 4-6 equal, within 1e-5,
//   those of shardbench-core resumed at 1 rank from the same state
//   (tools/checkpoint/convert.py); a core checkpoint given to a PyTorch run's
//   --resume is refused with exit 2, naming it.
// - aKilledRankRestartsFromItsCheckpoint: rank processes killed after the
//   first checkpoint; the run restarts (--max-restarts 1), the script resumes
//   from its newest DCP checkpoint, and the last step's loss equals the
//   uninterrupted run's within 1e-5.
// - aDetachedRunIsFollowedToItsEnd: `run --detach` with the script shipped
//   into the run directory; every step reaches the store once.
// - aUserScriptRuns: a script of the user's (--script) that reports through
//   shardbench_report.py, its --init-from passed on unchecked (its model is not
//   the plan's); misuse (--script without --engine pytorch, a missing
//   script) is refused with exit 2 before anything is recorded.
// - aTransformersScriptRestartsDetached: examples/pytorch/train_gpt_neox_fsdp2.py
//   (transformers' GPT-NeoX, which the core does not implement) as the user's
//   script with its own arguments (--script-arg), detached with a restart
//   allowed: its ranks killed after its first DCP checkpoint, the supervisor
//   starts it again without --resume, it resumes from that checkpoint, and
//   the followed run's last loss equals an uninterrupted run's within 1e-5,
//   every step of each attempt stored once; a DCP checkpoint of it restored
//   (`restore`) at 1 rank runs the same script with the same arguments from
//   the step after it.
// - preflightSaysWhichHostLacksWhat: `preflight --engine pytorch` tests the
//   Python of every host instead of the core: the project's PyTorch passes;
//   a missing Python, a venv without torch and Debian's PyTorch 1.13 (no
//   fully_shard) fail, each named; over SSH (two loopback sshd) each host's
//   Python is tested there and a failure names its host; a run over the two
//   hosts uploads the script beside the plan and completes.
#include "launcher_test_support.hpp"

#include "store/run_reader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <csignal>

using namespace sb;
using namespace sb::test;

namespace {

constexpr double kLossTolerance = 1e-5;

QString python() { return qEnvironmentVariable("SB_PYTHON"); }

using Losses = QHash<QPair<int, int>, double>; // (rank, step) -> loss

// Every step row of a run's attempt, and how often each (rank, step) came.
Losses lossesOf(const QString& db, qint64 runId, int attempt, int* duplicates)
{
    Losses out;
    *duplicates = 0;
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
    if (!reader) return out;
    reader->forEachStepRow(runId, -1, [&](const store::MetricRow& r) {
        if (r.m.attempt != attempt) return;
        if (out.contains({r.m.rank, r.m.step})) ++*duplicates;
        out.insert({r.m.rank, r.m.step}, r.m.loss);
    });
    return out;
}

// A DCP checkpoint of `step` committed in a run's own folder under `root`
// (ROOT/<run uid>/step-N/.metadata; DCP writes .metadata last).
bool committedUnder(const QString& root, int step)
{
    for (const QString& run : QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFile::exists(QStringLiteral("%1/%2/step-%3/.metadata").arg(root, run).arg(step, 6, 10, QLatin1Char('0')))) return true;
    return false;
}

qint64 runIdIn(const CliResult& r)
{
    // "run 7 (UID) completed", the summary's first line on stdout
    static const QRegularExpression line(QStringLiteral("^run (\\d+) \\("), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(r.out);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace

class LauncherPytorchEngine : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString db_;
    qint64 ptRun_ = -1; // the exported script's first run, W=2, DCP checkpoints at steps 3 and 6
    QString ptPlan_;

    // A plan of the tutorial Transformer at W=2 on the CPU, checkpointing
    // into `checkpoints` every `interval` steps.
    QString plan(const QString& name, int steps, const QString& checkpoints, int interval, int dim = 32)
    {
        const QString path = tmp_.filePath(name + QStringLiteral(".json"));
        const CliResult r = runCli({QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("transformer"), QStringLiteral("--vocab"),
                                    QStringLiteral("64"), QStringLiteral("--dim"), QString::number(dim), QStringLiteral("--layers"),
                                    QStringLiteral("2"), QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--kv-heads"),
                                    QStringLiteral("2"), QStringLiteral("--ffn"), QString::number(4 * dim), QStringLiteral("--max-seq"),
                                    QStringLiteral("16"), QStringLiteral("--procs-per-node"), QStringLiteral("2"), QStringLiteral("--batch"),
                                    QStringLiteral("2"), QStringLiteral("--seq"), QStringLiteral("16"), QStringLiteral("--steps"),
                                    QString::number(steps), QStringLiteral("--checkpoint-dir"), checkpoints,
                                    QStringLiteral("--checkpoint-interval"), QString::number(interval), QStringLiteral("--name"), name,
                                    QStringLiteral("-o"), path},
                                   60000);
        return r.code == 0 ? path : QString();
    }

    QStringList pytorchRun(const QString& planPath, const QString& name)
    {
        return {QStringLiteral("run"), planPath, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"), name,
                QStringLiteral("--engine"), QStringLiteral("pytorch"), QStringLiteral("--python"), python(), QStringLiteral("--env"),
                QStringLiteral("SB_THREADS=1"), QStringLiteral("--env"), QStringLiteral("OMP_NUM_THREADS=1")};
    }

    // Once the checkpoint of `step` is committed under `root`, SIGKILLs the
    // rank processes `isRank` picks; the run's result.
    void killRanksAfter(QProcess& run, const QString& root, int step, const std::function<bool(const ProcessInfo&)>& isRank, CliResult* out)
    {
        QVERIFY(run.waitForStarted());
        QVERIFY2(QTest::qWaitFor([&] { return committedUnder(root, step); }, 180000), qPrintable(root));
        int signalled = 0;
        for (const ProcessInfo& p : processes())
            if (p.comm.startsWith("python") && isRank(p) && ::kill(static_cast<pid_t>(p.pid), SIGKILL) == 0) ++signalled;
        QVERIFY(signalled > 0);
        QVERIFY(run.waitForFinished(300000));
        *out = {run.exitCode(), QString::fromUtf8(run.readAllStandardOutput()), QString::fromUtf8(run.readAllStandardError())};
        QVERIFY2(out->code == 0, qPrintable(describe(*out)));
    }

    // The restarted attempt of `runId` began right after a checkpoint (one
    // of `resumable`) and its step `last` has the uninterrupted run's loss.
    void resumedAsUninterrupted(qint64 runId, qint64 uninterrupted, const QList<int>& resumable, int last, const char* what)
    {
        QString error;
        auto readerOpened = store::RunReader::open(db_);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        QCOMPARE(reader->run(runId)->status, QStringLiteral("completed"));
        QCOMPARE(reader->run(runId)->restarts, 1);
        int dup = 0;
        const Losses again = lossesOf(db_, runId, 1, &dup);
        QCOMPARE(dup, 0);
        int first = 1 << 30;
        for (auto it = again.begin(); it != again.end(); ++it) first = std::min(first, it.key().second);
        QVERIFY2(resumable.contains(first - 1), qPrintable(QString::number(first)));
        const Losses reference = lossesOf(db_, uninterrupted, 0, &dup);
        for (int rank = 0; rank < 2; ++rank) {
            const double d = std::abs(again.value({rank, last}, NAN) - reference.value({rank, last}, NAN));
            qInfo("%s, rank %d, step %d after a restart from step %d: loss differs by %.3g", what, rank, last, first - 1, d);
            QVERIFY2(d <= kLossTolerance, qPrintable(QString::number(d)));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SHARDBENCH_DB");
        QVERIFY2(!python().isEmpty(), "SB_PYTHON is not set (ctest sets it; scripts/install-deps.sh makes .venv)");
        QByteArray out;
        QCOMPARE(runProgram(python(), {QStringLiteral("-c"), QStringLiteral("import torch.distributed.fsdp")}, &out, 120000), 0);
        db_ = tmp_.filePath(QStringLiteral("runs.sqlite"));
    }

    void theExportedScriptTrainsAsTheCoreDoes()
    {
        const QString pt = plan(QStringLiteral("pt"), 6, tmp_.filePath(QStringLiteral("ck-pt")), 3);
        const QString core = plan(QStringLiteral("core"), 6, tmp_.filePath(QStringLiteral("ck-core")), 3);
        QVERIFY(!pt.isEmpty() && !core.isEmpty());
        const CliResult p = runCli(pytorchRun(pt, QStringLiteral("pytorch")), 300000);
        QVERIFY2(p.code == 0, qPrintable(describe(p)));
        const CliResult c = runCli({QStringLiteral("run"), core, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--env"),
                                    QStringLiteral("SB_THREADS=1")},
                                   300000);
        QVERIFY2(c.code == 0, qPrintable(describe(c)));
        int dupP = 0, dupC = 0;
        const Losses lp = lossesOf(db_, runIdIn(p), 0, &dupP), lc = lossesOf(db_, runIdIn(c), 0, &dupC);
        QCOMPARE(dupP, 0);
        QCOMPARE(lp.size(), 12); // 6 steps x 2 ranks
        QCOMPARE(lc.size(), 12);
        double worst = 0;
        for (auto it = lc.begin(); it != lc.end(); ++it) {
            QVERIFY2(lp.contains(it.key()), qPrintable(QString::number(it.key().second)));
            worst = std::max(worst, std::abs(lp.value(it.key()) - it.value()));
        }
        qInfo("exported script vs core, 6 steps x 2 ranks: largest loss difference %.3g", worst);
        QVERIFY2(worst <= kLossTolerance, qPrintable(QString::number(worst)));
        QString error;
        auto readerOpened = store::RunReader::open(db_);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        QStringList steps;
        for (const store::CheckpointRecord& ck : reader->checkpoints(runIdIn(p)))
            if (ck.rank == 0 && ck.status == QLatin1String("complete")) steps << QString::number(ck.step);
        QCOMPARE(steps, (QStringList{QStringLiteral("3"), QStringLiteral("6")}));
        // The store says what the ranks ran; `show` too.
        QCOMPARE(reader->run(runIdIn(p))->engine, QStringLiteral("pytorch"));
        QCOMPARE(reader->run(runIdIn(c))->engine, QString());
        const CliResult shown = runCli({QStringLiteral("show"), QString::number(runIdIn(p)), QStringLiteral("--db"), db_}, 60000);
        QVERIFY2(shown.code == 0 && shown.out.contains(QRegularExpression(QStringLiteral("engine +pytorch"))), qPrintable(describe(shown)));
        // Its checkpoints are in a folder of its own, as the core's are.
        const QString uid = reader->run(runIdIn(p))->uid;
        QVERIFY(QFileInfo(tmp_.filePath(QStringLiteral("ck-pt/%1/step-000006/.metadata").arg(uid))).isFile());
        ptRun_ = runIdIn(p);
        ptPlan_ = pt;

        // The same plan again: a run of its own from step 1, not a resume of the first run's step 6.
        const CliResult again = runCli(pytorchRun(pt, QStringLiteral("pytorch-again")), 300000);
        QVERIFY2(again.code == 0, qPrintable(describe(again)));
        const Losses la = lossesOf(db_, runIdIn(again), 0, &dupP);
        QCOMPARE(la.size(), 12);
        QCOMPARE(la.value({0, 1}), lp.value({0, 1}));
    }

    void aDcpCheckpointRestoresAtAnotherWorldSize()
    {
        QVERIFY2(ptRun_ >= 0, "needs theExportedScriptTrainsAsTheCoreDoes's run");
        QString error;
        auto readerOpened = store::RunReader::open(db_);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const QString checkpoint = tmp_.filePath(QStringLiteral("ck-pt/%1/step-000003").arg(reader->run(ptRun_)->uid));
        const CliResult r = runCli({QStringLiteral("restore"), checkpoint, QStringLiteral("--world-size"), QStringLiteral("1"),
                                    QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"), QStringLiteral("restored"),
                                    QStringLiteral("--env"), QStringLiteral("SB_THREADS=1"), QStringLiteral("--env"),
                                    QStringLiteral("OMP_NUM_THREADS=1")},
                                   300000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        reader = store::RunReader::open(db_).valueOr(nullptr);
        const std::optional<store::RunRow> child = reader->run(runIdIn(r));
        QVERIFY(child);
        QCOMPARE(child->engine, QStringLiteral("pytorch"));
        QCOMPARE(child->python, python());
        QCOMPARE(child->script, QString()); // the plan's exported one
        QCOMPARE(child->parentRun, ptRun_);
        QCOMPARE(child->resumedFrom, checkpoint);
        QCOMPARE(child->worldSize, 1);
        int dup = 0;
        const Losses restored = lossesOf(db_, child->id, 0, &dup);
        QCOMPARE(dup, 0);
        QCOMPARE(restored.size(), 3);
        QVERIFY(restored.contains({0, 4}) && restored.contains({0, 6}));

        // The oracle: shardbench-core resumed at 1 rank from the same state, converted by tools/checkpoint/convert.py.
        const QString plan = tmp_.filePath(QStringLiteral("restored.json")), script = tmp_.filePath(QStringLiteral("restored.py"));
        QCOMPARE(SshdFixture::writeFile(plan, child->planJson.toUtf8()), QString());
        CliResult c = runCli({QStringLiteral("export-script"), plan, QStringLiteral("-o"), script}, 60000);
        QVERIFY2(c.code == 0, qPrintable(describe(c)));
        QByteArray out;
        const QString converted = tmp_.filePath(QStringLiteral("restored-core"));
        QVERIFY2(runProgram(python(), {qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tools/checkpoint/convert.py"), QStringLiteral("dcp-to-core"),
                                       checkpoint, converted, QStringLiteral("--script"), script, QStringLiteral("--plan"), plan},
                            &out, 180000) == 0,
                 out.constData());
        const QString coreCheckpoint = converted + QStringLiteral("/converted/step-000003");
        c = runCli({QStringLiteral("run"), plan, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--resume"), coreCheckpoint,
                    QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")},
                   300000);
        QVERIFY2(c.code == 0, qPrintable(describe(c)));
        const Losses core = lossesOf(db_, runIdIn(c), 0, &dup);
        QCOMPARE(core.size(), 3);
        double worst = 0;
        for (auto it = core.begin(); it != core.end(); ++it) worst = std::max(worst, std::abs(restored.value(it.key(), NAN) - it.value()));
        qInfo("DCP step 3 of 2 ranks restored at 1 rank, script vs core, steps 4-6: largest loss difference %.3g", worst);
        QVERIFY2(worst <= kLossTolerance, qPrintable(QString::number(worst)));

        // A PyTorch run resumes from DCP only: the core's checkpoint is refused, named.
        c = runCli(pytorchRun(ptPlan_, QStringLiteral("not-dcp")) << QStringLiteral("--resume") << coreCheckpoint, 60000);
        QCOMPARE(c.code, 2);
        QVERIFY2(c.err.contains(coreCheckpoint + QStringLiteral(" is not a DCP checkpoint")), qPrintable(describe(c)));
    }

    void aKilledRankRestartsFromItsCheckpoint()
    {
        // Wider and longer than above, so that the kill lands well before the end.
        const QString whole = plan(QStringLiteral("whole"), 40, tmp_.filePath(QStringLiteral("ck-whole")), 10, 64);
        const QString killed = plan(QStringLiteral("killed"), 40, tmp_.filePath(QStringLiteral("ck-killed")), 10, 64);
        QVERIFY(!whole.isEmpty() && !killed.isEmpty());
        const CliResult w = runCli(pytorchRun(whole, QStringLiteral("whole")), 300000);
        QVERIFY2(w.code == 0, qPrintable(describe(w)));

        QProcess run;
        run.setProgram(cliPath());
        run.setArguments(pytorchRun(killed, QStringLiteral("killed")) << QStringLiteral("--max-restarts") << QStringLiteral("1"));
        run.start();
        CliResult k;
        // The ranks of this run: their script is in the plan copy's folder.
        killRanksAfter(run, tmp_.filePath(QStringLiteral("ck-killed")), 10,
                       [](const ProcessInfo& p) { return p.cmdline.contains("/shardbench-") && p.cmdline.contains("train.py"); }, &k);
        if (QTest::currentTestFailed()) return;
        resumedAsUninterrupted(runIdIn(k), runIdIn(w), {10, 20, 30}, 40, "exported script");
    }

    void aDetachedRunIsFollowedToItsEnd()
    {
        const QString p = plan(QStringLiteral("detached"), 5, tmp_.filePath(QStringLiteral("ck-detached")), 5);
        QVERIFY(!p.isEmpty());
        const CliResult r = runCli(pytorchRun(p, QStringLiteral("detached"))
                                       << QStringLiteral("--detach") << QStringLiteral("--run-root") << tmp_.filePath(QStringLiteral("runs")),
                                   300000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QString error;
        auto readerOpened = store::RunReader::open(db_);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const QList<store::RunRow> runs = reader->listRuns(1);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].status, QStringLiteral("completed"));
        QVERIFY(QFile::exists(runs[0].runDir + QStringLiteral("/train.py")));
        int dup = 0;
        QCOMPARE(lossesOf(db_, runs[0].id, 0, &dup).size(), 10);
        QCOMPARE(dup, 0);
    }

    void aUserScriptRuns()
    {
        const QString p = plan(QStringLiteral("user"), 3, QString(), 0);
        QVERIFY(!p.isEmpty());
        const QString script = tmp_.filePath(QStringLiteral("my_train.py"));
        QCOMPARE(SshdFixture::writeFile(script, QByteArray(
            "import os, sys\n"
            "sys.path.insert(0, os.environ['SB_REPORT_DIR'])\n"
            "from shardbench_report import Reporter\n"
            "rep = Reporter()\n"
            "rep.hello()\n"
            "for step in range(1, 4):\n"
            "    rep.step(step=step, steps=3, loss=5.0 - step, tokens=32)\n"
            "rep.done(status='ok')\n")), QString());
        // Its --init-from is its own (its model is not the plan's): passed on, not checked against the plan.
        const QString weights = tmp_.filePath(QStringLiteral("its-own.safetensors"));
        QCOMPARE(SshdFixture::writeFile(weights, "not the plan's weights"), QString());
        CliResult r = runCli(pytorchRun(p, QStringLiteral("user")) << QStringLiteral("--script") << script << QStringLiteral("--init-from")
                                                                   << weights << QStringLiteral("--env")
                                                                   << QStringLiteral("SB_REPORT_DIR=") + qEnvironmentVariable("SB_SOURCE_DIR") +
                                                                          QStringLiteral("/resources/python"),
                             120000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        int dup = 0;
        const Losses l = lossesOf(db_, runIdIn(r), 0, &dup);
        QCOMPARE(l.value({0, 3}), 2.0);
        QCOMPARE(l.value({1, 1}), 4.0);

        // Misuse, refused before anything is recorded.
        r = runCli({QStringLiteral("run"), p, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--script"), script}, 60000);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("--engine pytorch")), qPrintable(describe(r)));
        r = runCli(pytorchRun(p, QStringLiteral("missing")) << QStringLiteral("--script") << tmp_.filePath(QStringLiteral("nowhere.py")), 60000);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("nowhere.py")), qPrintable(describe(r)));
    }

    void aTransformersScriptRestartsDetached()
    {
        const QString p = plan(QStringLiteral("neox"), 12, QString(), 0); // the mesh: 2 ranks here; the script builds its own model
        QVERIFY(!p.isEmpty());
        const QString example = qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/examples/pytorch/train_gpt_neox_fsdp2.py");
        auto neox = [&](const QString& name, const QString& checkpoints) {
            QStringList args = pytorchRun(p, name) << QStringLiteral("--script") << example;
            for (const QString& a : {QStringLiteral("--steps"), QStringLiteral("12"), QStringLiteral("--checkpoint-dir"), checkpoints,
                                     QStringLiteral("--checkpoint-every"), QStringLiteral("4")})
                args << QStringLiteral("--script-arg") << a;
            return args;
        };
        const CliResult whole = runCli(neox(QStringLiteral("neox-whole"), tmp_.filePath(QStringLiteral("ck-neox-whole"))), 300000);
        QVERIFY2(whole.code == 0, qPrintable(describe(whole)));

        QProcess run;
        run.setProgram(cliPath());
        run.setArguments(neox(QStringLiteral("neox-killed"), tmp_.filePath(QStringLiteral("ck-neox-killed")))
                         << QStringLiteral("--max-restarts") << QStringLiteral("1") << QStringLiteral("--detach") << QStringLiteral("--run-root")
                         << tmp_.filePath(QStringLiteral("neox-runs")));
        run.start();
        CliResult k;
        killRanksAfter(run, tmp_.filePath(QStringLiteral("ck-neox-killed")), 4, [](const ProcessInfo& p) {
            return p.cmdline.contains("train_gpt_neox_fsdp2.py") && p.cmdline.contains("ck-neox-killed");
        }, &k);
        if (QTest::currentTestFailed()) return;
        QString error;
        auto readerOpened = store::RunReader::open(db_);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const store::RunRow killed = reader->listRuns(1).value(0);
        QCOMPARE(killed.name, QStringLiteral("neox-killed"));
        QVERIFY(killed.isDetached());
        resumedAsUninterrupted(killed.id, runIdIn(whole), {4, 8}, 12, "GPT-NeoX, detached");

        // Its step-8 checkpoint restored at 1 rank: the same script with the same arguments, from step 9.
        const store::RunRow parent = *reader->run(runIdIn(whole));
        const QString checkpoint = tmp_.filePath(QStringLiteral("ck-neox-whole/%1/step-000008").arg(parent.uid));
        const CliResult r = runCli({QStringLiteral("restore"), checkpoint, QStringLiteral("--world-size"), QStringLiteral("1"),
                                    QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--env"), QStringLiteral("OMP_NUM_THREADS=1")},
                                   300000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        reader = store::RunReader::open(db_).valueOr(nullptr);
        const store::RunRow child = *reader->run(runIdIn(r));
        QCOMPARE(child.script, example);
        QCOMPARE(child.scriptArgs, parent.scriptArgs);
        QCOMPARE(child.worldSize, 1);
        int dup = 0;
        const Losses steps = lossesOf(db_, child.id, 0, &dup);
        QCOMPARE(steps.size(), 4);
        QVERIFY(steps.contains({0, 9}) && steps.contains({0, 12}));
        QVERIFY(committedUnder(tmp_.filePath(QStringLiteral("ck-neox-whole")), 12));
    }

    void preflightSaysWhichHostLacksWhat()
    {
        const QString p = plan(QStringLiteral("checked"), 2, QString(), 0);
        QVERIFY(!p.isEmpty());
        auto preflight = [&](const QString& py, const QStringList& target = {QStringLiteral("--local")}) {
            return runCli(QStringList{QStringLiteral("preflight"), p, QStringLiteral("--engine"), QStringLiteral("pytorch"),
                                      QStringLiteral("--python"), py} + target,
                          180000);
        };
        CliResult r = preflight(python());
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QLatin1String("python: Python 3.")) && r.out.contains(QLatin1String("with PyTorch 2.")), qPrintable(describe(r)));

        r = preflight(tmp_.filePath(QStringLiteral("nowhere/python3")));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("this machine: Python not found (")), qPrintable(describe(r)));

        // A Python without PyTorch: a venv of its own.
        const QString bare = tmp_.filePath(QStringLiteral("bare-venv"));
        QCOMPARE(runProgram(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-m"), QStringLiteral("venv"), QStringLiteral("--without-pip"), bare},
                            nullptr, 120000),
                 0);
        r = preflight(bare + QStringLiteral("/bin/python"));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("cannot import PyTorch (ModuleNotFoundError")), qPrintable(describe(r)));

        // Debian's python3-torch 1.13 (scripts/install-deps.sh installs it): no fully_shard.
        r = preflight(QStringLiteral("/usr/bin/python3"));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("PyTorch 1.13")) && r.out.contains(QLatin1String("needs PyTorch 2.6 or newer")),
                 qPrintable(describe(r)));

        // Over SSH: each host tests its own Python, and a failure names the host.
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd")));
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.2"), QStringLiteral("127.0.0.3")}), QString());
        const QStringList hosts{QStringLiteral("--host"), sshd.alias(0) + QStringLiteral(":1"), QStringLiteral("--host"),
                                sshd.alias(1) + QStringLiteral(":1"), QStringLiteral("--ssh-config"), sshd.configFile,
                                QStringLiteral("--known-hosts"), sshd.knownHostsFile, QStringLiteral("--ssh-dir"), sshd.sshDir,
                                QStringLiteral("--remote-dir"), tmp_.filePath(QStringLiteral("remote"))};
        r = preflight(python(), hosts);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        for (int h = 0; h < 2; ++h)
            QVERIFY2(r.out.contains(sshd.alias(h) + QStringLiteral(": Python 3.")), qPrintable(describe(r)));
        r = preflight(QStringLiteral("/usr/bin/python3"), hosts);
        QCOMPARE(r.code, 1);
        for (int h = 0; h < 2; ++h)
            QVERIFY2(r.out.contains(sshd.alias(h) + QStringLiteral(": PyTorch 1.13")), qPrintable(describe(r)));

        // And the run itself: the exported script goes up beside the plan on each host.
        r = runCli(QStringList{QStringLiteral("run"), p, QStringLiteral("--db"), db_, QStringLiteral("--engine"), QStringLiteral("pytorch"),
                               QStringLiteral("--python"), python(), QStringLiteral("--env"), QStringLiteral("SB_THREADS=1"),
                               QStringLiteral("--quiet")} + hosts,
                   300000);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        int dup = 0;
        const Losses l = lossesOf(db_, runIdIn(r), 0, &dup);
        QCOMPARE(l.size(), 4); // 2 steps x 2 ranks, one on each host
        QCOMPARE(dup, 0);
    }
};

QTEST_MAIN(LauncherPytorchEngine)
#include "tst_launcher_pytorch_engine.moc"
