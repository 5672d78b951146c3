// The exported FSDP2 script run by the real PyTorch 2.x (the project's
// environment, SB_PYTHON: fully_shard, DeviceMesh, DCP on the CPU with Gloo)
// against shardbench-core on the same plan: the same initial weights, data,
// losses and gradient norms, sharded (W=2, 3 with uneven rows) and not; its
// resume from its own DCP checkpoint after a rank was killed; --init-from in the core's and in Hugging
// Face's layout; a clear refusal of an old PyTorch (Debian's 1.13). A spy
// (data/fsdp2/spy.py) logs what the real fully_shard made of each unit.
#include "engine_support.hpp"
#include "script_runner.hpp"

#include "protocol/events.hpp"

#include <QDir>
#include <QElapsedTimer>
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

QString testData(const QString& file) { return sourcePath(QStringLiteral("tests/engine/data/") + file); }

sb::Plan llamaPlan(int world, int steps) { return smallPlan("llama3-8b", world, steps); }

// The printed losses have 6 decimals (2e-7 relative); a wrong layout or
// initialisation moves them by 1e-4 relative or more.
constexpr double kTolerance = 1e-5;

// The script reports as the core does (resources/python/shardbench_report.py,
// embedded): rank 0's event lines read by the core's reader, a hello, the
// plan's units as fully_shard wrapped them, a step line per step carrying the
// printed loss, system samples, and a done.
void checkReports(const ScriptRun& py, const sb::Plan& plan)
{
    QStringList types;
    std::vector<double> losses;
    for (const QString& line : py.out.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QStringLiteral("@sb "))) continue;
        const sb::protocol::EventLine e = sb::protocol::parseEventLine(line.toStdString(), "train.py");
        QVERIFY2(e.ok && e.problem.empty() && e.envelope.rank == 0, qPrintable(line));
        types << QString::fromStdString(e.envelope.type);
        if (e.envelope.type == sb::protocol::type::step) {
            const sb::protocol::Step step = sb::protocol::Step::fromJson(e.body);
            QCOMPARE(step.step, static_cast<std::int64_t>(losses.size() + 1));
            QVERIFY2(step.tokens > 0 && step.stepMs > 0 && step.memCurrent > 0, qPrintable(line));
            losses.push_back(step.loss);
        }
        if (e.envelope.type == sb::protocol::type::system) { // from hello() on, every few seconds
            const sb::protocol::System sample = sb::protocol::System::fromJson(e.body);
            QVERIFY2(sample.cpuUtil && *sample.cpuUtil >= 0 && sample.hostRss && *sample.hostRss > (10LL << 20), qPrintable(line));
        }
        if (e.envelope.type == sb::protocol::type::plan) {
            const sb::protocol::PlanEvent p = sb::protocol::PlanEvent::fromJson(e.body);
            QCOMPARE(p.units.size(), plan.units.size());
            QVERIFY(p.paramsTotal > 0);
        }
    }
    QVERIFY2(types.size() >= 2 && types.front() == QStringLiteral("hello") && types.back() == QStringLiteral("done"),
             qPrintable(types.join(QLatin1Char(' '))));
    QVERIFY(types.contains(QStringLiteral("plan")));
    QVERIFY(types.contains(QStringLiteral("system"))); // the first sample, at hello()
    QCOMPARE(losses.size(), py.steps.size());
    for (std::size_t i = 0; i < losses.size(); ++i)
        QVERIFY2(std::abs(losses[i] - py.steps[i].loss) <= 1e-6 * std::abs(py.steps[i].loss) + 1e-6,
                 qPrintable(QStringLiteral("step %1: reported %2, printed %3").arg(i + 1).arg(losses[i]).arg(py.steps[i].loss)));
}

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

    QString exportScript(const sb::Plan& plan, const QString& name) { return ::exportScript(tmp_, plan, name); }

    QString log(const QString& name) const { return tmp_.filePath(name + QStringLiteral(".calls.jsonl")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        SB_REQUIRE_TORCH2();
    }

    void matchesTheCore_data()
    {
        QTest::addColumn<int>("world");
        QTest::addColumn<QString>("model");
        SB_ORACLE_ROW(true, "llama, 2 ranks, grad accumulation") << 2 << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(false, "tutorial, 3 ranks, uneven rows") << 3 << QStringLiteral("transformer");
        SB_ORACLE_ROW(false, "llama, 1 rank") << 1 << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(true, "gpt-2, 2 ranks, grad accumulation") << 2 << QStringLiteral("gpt2-124m");
        SB_ORACLE_ROW(false, "llama, RoPE theta 10000 (Llama 2), 2 ranks") << 2 << QStringLiteral("llama-theta-10000");
        SB_ORACLE_ROW(false, "llama, no weight decay on 1-D and embeddings, 2 ranks") << 2 << QStringLiteral("llama-no-decay");
        SB_ORACLE_ROW(false, "llama, 4 ranks") << 4 << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(true, "llama, HSDP 2 x 2") << 4 << QStringLiteral("llama-hsdp");
        SB_ORACLE_ROW(false, "llama, reshard_after_forward 2, 4 ranks") << 4 << QStringLiteral("llama-reshard-2");
        SB_ORACLE_ROW(false, "llama, activation checkpointing, 2 ranks") << 2 << QStringLiteral("llama-ac");
        SB_ORACLE_ROW(true, "llama, CPUOffloadPolicy, 2 ranks") << 2 << QStringLiteral("llama-offload");
        SB_ORACLE_ROW(false, "llama 3.2: RoPE scaling, tied embeddings, 2 ranks") << 2 << QStringLiteral("llama-3.2");
        SB_ORACLE_ROW(false, "mistral, 2 ranks") << 2 << QStringLiteral("mistral-7b");
        SB_ORACLE_ROW(false, "qwen2.5: q/k/v biases, tied embeddings, eps 1e-6, 2 ranks") << 2 << QStringLiteral("qwen2.5-0.5b");
        SB_ORACLE_ROW(true, "qwen3: q/k norms, head_dim 32 (not 64 / 4), 3 ranks") << 3 << QStringLiteral("qwen3-0.6b");
    }

    void matchesTheCore()
    {
        QFETCH(int, world);
        QFETCH(QString, model);
        const bool variant = model.startsWith(QStringLiteral("llama-"));
        sb::Plan plan = model == QStringLiteral("transformer") ? tinyPlan(world, 2, 4)
                                                                 : smallPlan(variant ? "llama3-8b" : model.toLatin1().constData(), world, 4);
        if (model == QStringLiteral("llama-3.2")) {
            plan.model = smallPlan("llama3.2-1b", world, 4).model;
            plan.model.ropeScaling.originalMaxPositions = 40; // wavelengths 6.3, 32, 165, ...: each branch of the scaling
        }
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
        checkReports(py, plan);
        if (QTest::currentTestFailed()) return;

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
        SB_ORACLE_ROW(false, "llama, W=1, 4 micro-batches") << 1 << 4 << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(true, "llama, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(false, "tutorial, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("transformer");
        SB_ORACLE_ROW(false, "gpt-2, W=2, 2 micro-batches") << 2 << 2 << QStringLiteral("gpt2-124m");
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

    void resumesAfterARankIsKilled()
    {
        // Two ranks; each saves and loads only its own shards (DCP's state dict
        // of DTensors). Twelve steps, a checkpoint every three: rank 1 is killed
        // once rank 0 has printed step 4, so the checkpoint of step 3 has
        // committed (dcp.save returns on every rank only after rank 0 wrote
        // .metadata) and the ranks, in step with each other by their
        // collectives, are far from the end.
        sb::Plan plan = llamaPlan(2, 12);
        const QString dir = tmp_.filePath(QStringLiteral("killed"));
        plan.training.checkpoint.dir = dir.toStdString();
        plan.training.checkpoint.interval = 3;
        const QString script = exportScript(plan, QStringLiteral("killed"));
        QVERIFY(!script.isEmpty());
        const ScriptRun whole = runScript(script, 2, QString());
        QVERIFY2(whole.exitCode == 0 && whole.steps.size() == 12, qPrintable(whole.describe()));
        QVERIFY(QDir(dir).removeRecursively());

        QProcessEnvironment env;
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        const std::vector<std::unique_ptr<QProcess>> procs = LocalRunner::start(2, {script}, env, python());
        QProcess& survivor = *procs[0];
        QProcess& victim = *procs[1];
        QString out;
        QElapsedTimer waited;
        waited.start();
        while (!out.contains(QStringLiteral("\nstep 4 ")) && survivor.state() != QProcess::NotRunning && waited.elapsed() < 180000) {
            survivor.waitForReadyRead(200);
            out += QString::fromUtf8(survivor.readAllStandardOutput());
        }
        QVERIFY2(out.contains(QStringLiteral("\nstep 4 ")), qPrintable(out + QString::fromUtf8(survivor.readAllStandardError())));
        victim.kill(); // SIGKILL: no handler, no flush, as when a node dies
        QVERIFY(victim.waitForFinished(10000));
        QCOMPARE(victim.exitStatus(), QProcess::CrashExit);
        // The survivor fails in its next collective (Gloo sees the peer gone) or
        // waits in it: either way it is stopped within a bounded time.
        if (!survivor.waitForFinished(30000)) survivor.kill();
        survivor.waitForFinished(10000);
        out += QString::fromUtf8(survivor.readAllStandardOutput());
        QVERIFY2(!(survivor.exitStatus() == QProcess::NormalExit && survivor.exitCode() == 0), qPrintable(out));
        const std::size_t reached = scriptSteps(out).size();
        QVERIFY2(reached >= 4 && reached < 12, qPrintable(out));

        // A save cut short leaves only a .tmp folder; one is planted after the
        // newest committed checkpoint, as a rank killed while writing it would
        // leave it: the restart must neither read it nor be stopped by it.
        int newest = 0;
        for (const QString& e : QDir(dir).entryList({QStringLiteral("step-*")}, QDir::Dirs))
            if (QFile::exists(dir + QLatin1Char('/') + e + QStringLiteral("/.metadata")) && !e.endsWith(QStringLiteral(".tmp")))
                newest = std::max(newest, e.mid(5).toInt());
        QVERIFY2(newest >= 3 && newest < 12, qPrintable(QDir(dir).entryList().join(QLatin1Char(' '))));
        const QString torn = dir + QStringLiteral("/step-%1.tmp").arg(newest + 3, 6, 10, QLatin1Char('0'));
        QVERIFY(QDir().mkpath(torn));
        QFile half(torn + QStringLiteral("/__0_0.distcp"));
        QVERIFY(half.open(QIODevice::WriteOnly) && half.write("torn") == 4);
        half.close();

        qInfo("rank 1 killed when rank 0 had printed %zu steps; newest committed checkpoint: step %d", reached, newest);
        const ScriptRun resumed = runScript(script, 2, QString());
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains(QStringLiteral("step-%1 at step %2").arg(newest, 6, 10, QLatin1Char('0')).arg(newest)),
                 qPrintable(resumed.out));
        QCOMPARE(resumed.steps.size(), std::size_t(12 - newest));
        const std::vector<StepLine> tail(whole.steps.begin() + newest, whole.steps.end());
        QVERIFY2(worstDifference(resumed.steps, tail) < 1e-9, qPrintable(resumed.out + whole.out));
        // The planted folder was replaced by a committed checkpoint of that step.
        QVERIFY(!QFileInfo::exists(torn));
        QVERIFY(QFile::exists(dir + QStringLiteral("/step-%1/.metadata").arg(newest + 3, 6, 10, QLatin1Char('0'))));
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
            return runPython(args).ok();
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

    // A published GPT-2 checkpoint (Hugging Face's names: no "transformer."
    // prefix, no lm_head, the attention mask buffers): the script maps it as
    // the core does, and both train on from it alike.
    void initialWeightsFromPublishedGpt2()
    {
        const QString warmPlan = writePlan(tmp_, QStringLiteral("gpt2warm.plan.json"), smallPlan("gpt2-124m", 1, 3));
        const QString weights = tmp_.filePath(QStringLiteral("gpt2warm.safetensors"));
        const RunResult exported = LocalRunner::run(1, {QStringLiteral("--plan"), warmPlan, QStringLiteral("--export-final"), weights});
        QVERIFY2(exported.ok(), qPrintable(exported.describe()));
        const QString published = tmp_.filePath(QStringLiteral("gpt2-published"));
        QVERIFY(QDir().mkpath(published));
        const QString rename = tmp_.filePath(QStringLiteral("publish_gpt2.py"));
        QVERIFY(writeText(rename, QByteArray(
            "import sys, torch\n"
            "from safetensors.torch import load_file, save_file\n"
            "t = load_file(sys.argv[1])\n"
            "out = {k[len('transformer.'):]: v.contiguous() for k, v in t.items() if k.startswith('transformer.')}\n"
            "n = max(int(k.split('.')[1]) for k in out if k.startswith('h.')) + 1\n"
            "for i in range(n):\n"
            "    out[f'h.{i}.attn.bias'] = torch.tril(torch.ones(1, 1, 8, 8))\n"
            "save_file(out, sys.argv[2] + '/model.safetensors')\n")));
        const PythonRun renamed = runPython({rename, weights, published});
        QVERIFY2(renamed.ok(), qPrintable(renamed.err));

        const sb::Plan plan = smallPlan("gpt2-124m", 2, 3);
        const QString script = exportScript(plan, QStringLiteral("gpt2init"));
        QVERIFY(!script.isEmpty());
        const RunResult core = LocalRunner::run(2, {QStringLiteral("--plan"), tmp_.filePath(QStringLiteral("gpt2init.plan.json")),
                                                    QStringLiteral("--init-from"), published});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        const ScriptRun py = runScript(script, 2, {}, {QStringLiteral("--init-from"), published});
        QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
        const double diff = worstDifference(py.steps, coreSteps(core.ranks[0]));
        qInfo("published GPT-2 --init-from: worst relative difference %g", diff);
        QVERIFY2(diff < kTolerance, qPrintable(QStringLiteral("relative difference %1").arg(diff)));
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
