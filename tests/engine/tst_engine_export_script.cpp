// The exported FSDP2 script run by the real PyTorch 2.x (the project's
// environment, SB_PYTHON: fully_shard, DeviceMesh, DCP on the CPU with Gloo)
// against shardbench-core on the same plan: the same initial weights, data,
// losses and gradient norms, sharded (W=2, 3 with uneven rows) and not; its
// resume from its own DCP checkpoint; --init-from in the core's and in Hugging
// Face's layout; a clear refusal of an old PyTorch (Debian's 1.13). A spy
// (data/fsdp2/spy.py) logs what the real fully_shard made of each unit.
#include "engine_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

// ctest sets SB_SOURCE_DIR and SB_PYTHON (the project's environment, with PyTorch 2.x).
QString python() { return qEnvironmentVariable("SB_PYTHON"); }

QString testData(const QString& file) { return qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/engine/data/") + file; }

struct StepLine {
    double loss = 0, gradNorm = 0;
};

struct ScriptRun {
    int exitCode = -1;
    QString out, err; // rank 0's
    std::vector<StepLine> steps;
    QString describe() const { return QStringLiteral("exit %1\n%2\n%3").arg(exitCode).arg(out.right(2000), err.right(2000)); }
};

// `world` processes of the script with torchrun's environment, under `interpreter`:
// the spy logging to `log` around the real FSDP2, or the script alone when `log` is empty.
ScriptRun runScript(const QString& script, int world, const QString& log, const QStringList& args = {},
                    const QString& interpreter = python())
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    const QStringList spy = log.isEmpty() ? QStringList{} : QStringList{testData(QStringLiteral("fsdp2/spy.py")), log};
    const std::vector<std::unique_ptr<QProcess>> procs = LocalRunner::start(world, spy + QStringList{script} + args, env, interpreter);
    ScriptRun run;
    for (int r = world - 1; r >= 0; --r) {
        QProcess& p = *procs[static_cast<std::size_t>(r)];
        if (!p.waitForFinished(240000)) p.kill();
        p.waitForFinished();
        if (r == 0 || p.exitCode() != 0) {
            run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
            run.out = QString::fromUtf8(p.readAllStandardOutput());
            run.err = QString::fromUtf8(p.readAllStandardError());
        }
    }
    static const QRegularExpression line(QStringLiteral("^step \\d+ loss (\\S+) grad_norm (\\S+)"),
                                         QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(run.out); it.hasNext();) {
        const auto m = it.next();
        run.steps.push_back({m.captured(1).toDouble(), m.captured(2).toDouble()});
    }
    return run;
}

std::vector<StepLine> coreSteps(const RankResult& rank)
{
    std::vector<StepLine> out;
    for (const QJsonObject& e : rank.ofType(QStringLiteral("step")))
        out.push_back({e.value(QStringLiteral("loss")).toDouble(), e.value(QStringLiteral("grad_norm")).toDouble()});
    return out;
}

// Largest relative difference of the losses and of the gradient norms.
double worstDifference(const std::vector<StepLine>& a, const std::vector<StepLine>& b)
{
    if (a.size() != b.size() || a.empty()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, std::abs(a[i].loss - b[i].loss) / std::abs(b[i].loss));
        worst = std::max(worst, std::abs(a[i].gradNorm - b[i].gradNorm) / std::abs(b[i].gradNorm));
    }
    return worst;
}

sb::Plan llamaPlan(int world, int steps) { return smallPlan("llama3-8b", world, steps); }

// The printed losses have 6 decimals (2e-7 relative); a wrong layout or
// initialisation moves them by 1e-4 relative or more.
constexpr double kTolerance = 1e-5;

// The calls the spy logged for `rank`.
std::vector<QJsonObject> spied(const QString& log, int rank)
{
    std::vector<QJsonObject> out;
    QFile f(log);
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.isEmpty() && o.value(QStringLiteral("rank")).toInt() == rank) out.push_back(o);
    }
    return out;
}

} // namespace

class TestEngineExportScript : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    QString exportScript(const sb::Plan& plan, const QString& name)
    {
        const QString planPath = writePlan(tmp_, name + QStringLiteral(".plan.json"), plan);
        const QString script = tmp_.filePath(name + QStringLiteral(".py"));
        QProcess cli;
        cli.start(QFileInfo(LocalRunner::corePath()).dir().filePath(QStringLiteral("shardbench-cli")),
                  {QStringLiteral("export-script"), planPath, QStringLiteral("-o"), script});
        if (!cli.waitForFinished(60000) || cli.exitCode() != 0) return QString();
        return script;
    }

    QString log(const QString& name) const { return tmp_.filePath(name + QStringLiteral(".calls.jsonl")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        QProcess probe;
        probe.start(python(), {QStringLiteral("-c"), QStringLiteral("import numpy; from torch.distributed.fsdp import fully_shard")});
        const bool ok = probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
        if (!ok && qEnvironmentVariableIsSet("CI")) QFAIL("no PyTorch 2.x at SB_PYTHON: scripts/install-deps.sh makes the environment");
        if (!ok) QSKIP("no PyTorch 2.x at SB_PYTHON (scripts/install-deps.sh makes the project's environment)");
    }

    void matchesTheCore_data()
    {
        QTest::addColumn<int>("world");
        QTest::addColumn<QString>("model");
        QTest::newRow("llama, 2 ranks, grad accumulation") << 2 << QStringLiteral("llama3-8b");
        QTest::newRow("tutorial, 3 ranks, uneven rows") << 3 << QStringLiteral("transformer");
        QTest::newRow("llama, 1 rank") << 1 << QStringLiteral("llama3-8b");
        QTest::newRow("gpt-2, 2 ranks, grad accumulation") << 2 << QStringLiteral("gpt2-124m");
        QTest::newRow("llama, RoPE theta 10000 (Llama 2), 2 ranks") << 2 << QStringLiteral("llama-theta-10000");
        QTest::newRow("llama, no weight decay on 1-D and embeddings, 2 ranks") << 2 << QStringLiteral("llama-no-decay");
        QTest::newRow("llama, 4 ranks") << 4 << QStringLiteral("llama3-8b");
        QTest::newRow("llama, HSDP 2 x 2") << 4 << QStringLiteral("llama-hsdp");
        QTest::newRow("llama, reshard_after_forward 2, 4 ranks") << 4 << QStringLiteral("llama-reshard-2");
        QTest::newRow("llama, activation checkpointing, 2 ranks") << 2 << QStringLiteral("llama-ac");
        QTest::newRow("llama, CPUOffloadPolicy, 2 ranks") << 2 << QStringLiteral("llama-offload");
    }

    void matchesTheCore()
    {
        QFETCH(int, world);
        QFETCH(QString, model);
        const bool variant = model.startsWith(QStringLiteral("llama-"));
        sb::Plan plan = model == QStringLiteral("transformer") ? tinyPlan(world, 2, 4)
                                                                 : smallPlan(variant ? "llama3-8b" : model.toLatin1().constData(), world, 4);
        if (model == QStringLiteral("llama-theta-10000")) plan.model.ropeTheta = 10000;
        if (model == QStringLiteral("llama-no-decay")) {
            plan.training.optimizer.weightDecay = 0.5; // large enough to tell the groups apart in 4 steps
            plan.training.optimizer.noDecay = {"1d", "embeddings"};
        }
        if (model == QStringLiteral("llama-hsdp")) plan.mesh.replicate = 2;
        for (sb::UnitPolicy& u : plan.units) {
            if (model == QStringLiteral("llama-reshard-2") && !u.module.empty()) u.reshard = {sb::Reshard::Group, 2};
            if (model == QStringLiteral("llama-ac") && !u.module.empty()) u.ac = sb::Checkpointing::Full;
            if (model == QStringLiteral("llama-offload")) u.offload = true;
        }
        const QString name = QStringLiteral("match%1%2").arg(world).arg(model);
        const QString script = exportScript(plan, name);
        QVERIFY(!script.isEmpty());
        const RunResult core = LocalRunner::run(world, {QStringLiteral("--plan"), tmp_.filePath(name + QStringLiteral(".plan.json"))});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        const ScriptRun py = runScript(script, world, log(name));
        QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
        QCOMPARE(py.steps.size(), std::size_t(4));
        const double diff = worstDifference(py.steps, coreSteps(core.ranks[0]));
        QVERIFY2(diff < kTolerance, qPrintable(QStringLiteral("relative difference %1\n%2").arg(diff).arg(py.out)));

        // What the real fully_shard did: one call per unit, the root last, on a
        // CPU mesh of the world (2-D for HSDP: replicate x shard); every
        // parameter a DTensor sharded on rows (replicated over the first mesh
        // dimension for HSDP; rank 0 holds the first ceil(rows / shard group)),
        // still on the meta device.
        const std::vector<QJsonObject> calls = spied(log(name), 0);
        std::vector<QJsonObject> shards;
        for (const QJsonObject& c : calls)
            if (c.value(QStringLiteral("call")).toString() == QStringLiteral("fully_shard")) shards.push_back(c);
        QVERIFY2(shards.size() == plan.units.size(), qPrintable(QStringLiteral("%1 fully_shard calls for %2 units; %3 calls logged")
                                                                    .arg(shards.size()).arg(plan.units.size()).arg(calls.size())));
        QCOMPARE(shards.back().value(QStringLiteral("module")).toString(),
                 model == QStringLiteral("gpt2-124m") ? QStringLiteral("GPT2LMHeadModel") : QStringLiteral("Transformer"));
        QVERIFY(!calls.empty() && calls.front().value(QStringLiteral("call")).toString() == QStringLiteral("init_device_mesh"));
        const int replicate = plan.mesh.replicate, group = world / replicate;
        const QJsonArray meshShape = replicate > 1 ? QJsonArray{replicate, group} : QJsonArray{world};
        QCOMPARE(calls.front().value(QStringLiteral("shape")).toArray(), meshShape);
        const QJsonArray placements = replicate > 1 ? QJsonArray{QStringLiteral("R"), QStringLiteral("S(0)")} : QJsonArray{QStringLiteral("S(0)")};
        int params = 0;
        for (const QJsonObject& c : shards)
            for (const QJsonValue v : c.value(QStringLiteral("params")).toArray()) {
                const QJsonObject param = v.toObject();
                const int rows = param.value(QStringLiteral("rows")).toInt();
                QCOMPARE(param.value(QStringLiteral("placements")).toArray(), placements);
                QCOMPARE(param.value(QStringLiteral("local_rows")).toInt(), std::min(rows, (rows + group - 1) / group));
                QCOMPARE(param.value(QStringLiteral("device")).toString(), QStringLiteral("meta"));
                ++params;
            }
        QVERIFY(params > 0);
        for (const QJsonObject& c : shards) {
            if (model == QStringLiteral("llama-reshard-2") && c.value(QStringLiteral("module")).toString() != QStringLiteral("Transformer"))
                QCOMPARE(c.value(QStringLiteral("reshard_after_forward")).toInt(), 2);
            if (model == QStringLiteral("llama-offload")) QCOMPARE(c.value(QStringLiteral("offload")).toString(), QStringLiteral("CPUOffloadPolicy"));
        }
    }

    void bf16MatchesPyTorch_data()
    {
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("accum");
        QTest::addColumn<QString>("model");
        QTest::newRow("llama, W=1, 4 micro-batches") << 1 << 4 << QStringLiteral("llama3-8b");
        QTest::newRow("llama, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("llama3-8b");
        QTest::newRow("tutorial, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("transformer");
        QTest::newRow("gpt-2, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("gpt2-124m");
    }

    void bf16MatchesPyTorch()
    {
        // bf16 compute, fp32 reduction, under FSDP2's MixedPrecisionPolicy.
        // Both round every bf16 product, norm and activation once from fp32,
        // but each sums in its own order and keeps its own intermediates, so
        // the runs are not bit-equal. On the first step (same weights, same
        // batch) the core is within 1e-3 relative of PyTorch 2.15's bf16 run
        // (measured on an AVX2 CPU: llama 9.0e-5 and 1.6e-5, tutorial 1.0e-4,
        // GPT-2 5.1e-4, about its distance from fp32); products accumulated in
        // bf16 (LibTorch 1.13's own CPU gemm, SB_LINEAR=reference there) are
        // 3.8e-3 off on GPT-2. After it, the AdamW implementations round
        // differently in fp32 and the bf16 casts of the weights amplify that:
        // 6 steps' losses within 2e-3 relative.
        QFETCH(int, world);
        QFETCH(int, accum);
        QFETCH(QString, model);
        sb::Plan plan = smallPlan(model.toLatin1().constData(), world, 6);
        plan.training.microBatch = 2 / world;
        plan.training.gradAccum = accum;
        const QString name = QStringLiteral("bf16-%1%2").arg(world).arg(model);
        for (sb::DType dtype : {sb::DType::F32, sb::DType::BF16}) {
            for (sb::UnitPolicy& u : plan.units) {
                u.mp.paramDtype = dtype;
                u.mp.reduceDtype = sb::DType::F32;
            }
            if (dtype == sb::DType::F32) writePlan(tmp_, name + QStringLiteral(".fp32.plan.json"), plan);
        }
        const QString script = exportScript(plan, name);
        QVERIFY(!script.isEmpty());
        const RunResult core = LocalRunner::run(world, {QStringLiteral("--plan"), tmp_.filePath(name + QStringLiteral(".plan.json"))});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        const RunResult fp32 = LocalRunner::run(world, {QStringLiteral("--plan"), tmp_.filePath(name + QStringLiteral(".fp32.plan.json"))});
        QVERIFY2(fp32.ok(), qPrintable(fp32.describe()));
        const ScriptRun py = runScript(script, world, log(name));
        QVERIFY2(py.exitCode == 0 && py.steps.size() == 6, qPrintable(py.describe()));
        const std::vector<StepLine> ours = coreSteps(core.ranks[0]);
        QCOMPARE(ours.size(), std::size_t(6));
        const double first = worstDifference({py.steps.front()}, {ours.front()});
        const double bf16 = worstDifference({coreSteps(fp32.ranks[0]).front()}, {ours.front()});
        qInfo("first step: the core's bf16 %.2e from PyTorch's bf16, %.2e from its own fp32", first, bf16);
        QVERIFY2(first < 1e-3, qPrintable(QStringLiteral("first step: relative difference %1; the core: loss %2 grad_norm %3; PyTorch:\n%4")
                                              .arg(first)
                                              .arg(ours.front().loss, 0, 'f', 6)
                                              .arg(ours.front().gradNorm, 0, 'f', 6)
                                              .arg(py.out)));
        for (std::size_t i = 0; i < ours.size(); ++i)
            QVERIFY2(std::abs(py.steps[i].loss - ours[i].loss) < 2e-3 * ours[i].loss, qPrintable(py.out));
    }

    void resumesFromItsCheckpoint()
    {
        // Two ranks: each saves and loads only its own shards (DCP's state dict of DTensors).
        sb::Plan plan = llamaPlan(2, 6);
        plan.training.checkpoint.dir = tmp_.filePath(QStringLiteral("dcp")).toStdString();
        plan.training.checkpoint.interval = 3;
        const QString script = exportScript(plan, QStringLiteral("resume"));
        QVERIFY(!script.isEmpty());
        const ScriptRun whole = runScript(script, 2, QString());
        QVERIFY2(whole.exitCode == 0 && whole.steps.size() == 6, qPrintable(whole.describe()));
        // As if the job had died after step 3: only that checkpoint is left.
        QVERIFY(QDir(tmp_.filePath(QStringLiteral("dcp/step-000006"))).removeRecursively());
        const ScriptRun resumed = runScript(script, 2, QString());
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains(QStringLiteral("step-000003 at step 3")), qPrintable(resumed.out));
        QCOMPARE(resumed.steps.size(), std::size_t(3));
        const std::vector<StepLine> tail(whole.steps.begin() + 3, whole.steps.end());
        QVERIFY2(worstDifference(resumed.steps, tail) < 1e-9, qPrintable(resumed.out + whole.out));
    }

    void initialWeightsInBothLayouts()
    {
        // Weights that are not the initial ones: the core's after 6 steps.
        const sb::Plan warm = llamaPlan(1, 6);
        const QString warmPlan = writePlan(tmp_, QStringLiteral("warm.plan.json"), warm);
        const QString weights = tmp_.filePath(QStringLiteral("warm.safetensors"));
        const RunResult exported = LocalRunner::run(1, {QStringLiteral("--plan"), warmPlan, QStringLiteral("--export-final"), weights});
        QVERIFY2(exported.ok(), qPrintable(exported.describe()));
        auto toHf = [&](const QString& dir, bool permute) {
            QStringList args{testData(QStringLiteral("hf/to_hf.py")), warmPlan, weights, tmp_.filePath(dir)};
            if (!permute) args << QStringLiteral("--no-permute");
            return QProcess::execute(python(), args) == 0;
        };
        QVERIFY(toHf(QStringLiteral("hf"), true));
        QVERIFY(toHf(QStringLiteral("hf-renamed-only"), false));

        const sb::Plan plan = llamaPlan(2, 3);
        const QString script = exportScript(plan, QStringLiteral("init"));
        QVERIFY(!script.isEmpty());
        const RunResult core = LocalRunner::run(2, {QStringLiteral("--plan"), tmp_.filePath(QStringLiteral("init.plan.json")),
                                                    QStringLiteral("--init-from"), weights});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        const std::vector<StepLine> reference = coreSteps(core.ranks[0]);
        for (const QString& source : {weights, tmp_.filePath(QStringLiteral("hf")), tmp_.filePath(QStringLiteral("hf/model.safetensors"))}) {
            const ScriptRun py = runScript(script, 2, log(QStringLiteral("init")), {QStringLiteral("--init-from"), source});
            QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
            const double diff = worstDifference(py.steps, reference);
            QVERIFY2(diff < kTolerance, qPrintable(QStringLiteral("%1: relative difference %2").arg(source).arg(diff)));
        }
        // Renaming without the q/k permutation runs, and is wrong: the test can tell.
        const ScriptRun wrong = runScript(script, 2, log(QStringLiteral("init")),
                                          {QStringLiteral("--init-from"), tmp_.filePath(QStringLiteral("hf-renamed-only"))});
        QVERIFY2(wrong.exitCode == 0, qPrintable(wrong.describe()));
        QVERIFY(worstDifference(wrong.steps, reference) > 2 * kTolerance);
    }

    void refusesBadInput()
    {
        const QString script = exportScript(llamaPlan(1, 2), QStringLiteral("bad"));
        QVERIFY(!script.isEmpty());
        // Debian's PyTorch 1.13: a clear message before any import fails.
        const ScriptRun old = runScript(script, 1, QString(), {}, QStringLiteral("/usr/bin/python3"));
        QVERIFY(old.exitCode != 0);
        QVERIFY2(old.err.contains(QStringLiteral("needs PyTorch 2.6 or newer")) && old.err.contains(QStringLiteral("1.13")),
                 qPrintable(old.err));
        // A truncated weights file is named, with what is wrong with it.
        const QString truncated = tmp_.filePath(QStringLiteral("truncated.safetensors"));
        QFile file(truncated);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(QByteArray("\x10\x00\x00", 3)) == 3);
        file.close();
        const ScriptRun bad = runScript(script, 1, log(QStringLiteral("bad")), {QStringLiteral("--init-from"), truncated});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains(truncated + QStringLiteral(": not a safetensors file")), qPrintable(bad.err));
        const ScriptRun missing = runScript(script, 1, log(QStringLiteral("bad")),
                                            {QStringLiteral("--init-from"), tmp_.filePath(QStringLiteral("nowhere"))});
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains(QStringLiteral("no such file")), qPrintable(missing.err));
    }
};

QTEST_GUILESS_MAIN(TestEngineExportScript)
#include "tst_engine_export_script.moc"
