// Hugging Face checkpoints into and out of the core: `shardbench-cli plan
// --from-hf DIR`, `shardbench-core --init-from DIR` (one model.safetensors, or
// an index with shards) and `shardbench-cli checkpoint export --format hf`.
// The Hugging Face copies are written from the core's own weights by
// data/hf/to_hf.py with transformers' q/k permutation, so the same weights
// must give the same losses in both layouts; a copy renamed without the
// permutation must not. transformers itself is the oracle for the layout:
// AutoModelForCausalLM.from_pretrained of those folders and of the export
// (data/hf/hf_loss.py) gives the core's first-step loss on the same tokens.
// A transformers model the core does not implement (GPT-NeoX), trained under
// real FSDP2 by examples/pytorch/train_gpt_neox_fsdp2.py, reports in the
// core's event protocol through resources/python/shardbench_report.py.
// Python is the project's environment ($SB_PYTHON, scripts/install-deps.sh).
#include "engine_support.hpp"
#include "python_zygote.hpp"
#include "script_runner.hpp"

#include "plan/plan_json.hpp"
#include "protocol/events.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

// transformers' loss against the core's on the same weights and tokens, both
// fp32, relative. Seen (transformers 5.24, PyTorch 2.15, CPU): equal, at worst
// one fp32 step apart (1e-7, GPT-2); Llama's q/k rows left unpermuted: 9e-5.
constexpr double kTransformersTolerance = 1e-6;
// The first step's gradient norm (all parameters, before clipping) against
// transformers' on the same weights and tokens, relative.
constexpr double kGradNormTolerance = 1e-5;

QString hfScript(const char* name)
{
    return qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/engine/data/hf/") + QLatin1String(name);
}

double relativeTo(double value, double reference) { return std::abs(value - reference) / std::abs(reference); }

QString describe(const QString& folder, double transformers, double core)
{
    return QStringLiteral("%1: transformers %2, core %3, relative difference %4")
        .arg(folder)
        .arg(transformers, 0, 'g', 17)
        .arg(core, 0, 'g', 17)
        .arg(relativeTo(transformers, core), 0, 'g', 3);
}

// Runs a script of data/hf with $SB_PYTHON: true when it succeeds, its
// standard output in `stdOut`; when it fails, its output as a warning.
bool runHfScript(const QStringList& args, QString* stdOut = nullptr)
{
    const PythonRun run = runPython(args);
    if (stdOut) *stdOut = run.out;
    if (run.ok()) return true;
    qWarning("%s (exit %d): %s%s", qPrintable(args.join(QLatin1Char(' '))), run.exitCode, qPrintable(run.out), qPrintable(run.err));
    return false;
}

} // namespace

class TestEngineHfImport : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    // The core's weights after a few steps of `preset` (not the initial ones),
    // and their Hugging Face copies under `name`, `name`-sharded (3 files and an
    // index) and, for Llama, `name`-renamed (names only).
    bool prepare(const char* preset, const QString& name)
    {
        const QString plan = writePlan(tmp_, name + QStringLiteral(".plan.json"), smallPlan(preset, 1, 4));
        const QString weights = tmp_.filePath(name + QStringLiteral(".safetensors"));
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), plan, QStringLiteral("--export-final"), weights});
        if (!run.ok()) {
            qWarning("%s", qPrintable(run.describe()));
            return false;
        }
        auto toHf = [&](const QString& dir, const QStringList& extra) {
            return runHfScript(QStringList{hfScript("to_hf.py"), plan, weights, tmp_.filePath(dir)} + extra);
        };
        return toHf(name, {}) && toHf(name + QStringLiteral("-sharded"), {QStringLiteral("--shards"), QStringLiteral("3")}) &&
               toHf(name + QStringLiteral("-renamed"), {QStringLiteral("--no-permute")});
    }

    // `p` trained on a token file of seq_len + 2 tokens: one window, so every
    // sample of every rank is tokens[0, seq_len] (see data/hf/hf_loss.py).
    sb::Plan onOneWindow(sb::Plan p)
    {
        const QString path = tmp_.filePath(QStringLiteral("one-window-%1-%2.bin").arg(p.training.seqLen).arg(p.model.vocabSize));
        if (!QFile::exists(path)) {
            QByteArray tokens;
            QRandomGenerator random(20240601);
            for (int i = 0; i < p.training.seqLen + 2; ++i) {
                const quint32 id = random.bounded(static_cast<quint32>(p.model.vocabSize));
                tokens.append(static_cast<char>(id & 0xff)).append(static_cast<char>(id >> 8)); // uint16, little-endian
            }
            if (!writeText(path, tokens)) qWarning("cannot write %s", qPrintable(path));
        }
        p.training.data.kind = sb::DataConfig::Tokens;
        p.training.data.path = path.toStdString();
        return p;
    }

    // transformers' loss (data/hf/hf_loss.py) of each Hugging Face folder on
    // `plan`'s one window; empty when the script fails.
    std::vector<double> transformersLosses(const QString& plan, const QStringList& folders)
    {
        std::vector<double> out;
        QString text;
        if (!runHfScript(QStringList{hfScript("hf_loss.py"), plan} + folders, &text)) return out;
        for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) out.push_back(line.toDouble());
        if (out.size() != static_cast<std::size_t>(folders.size())) out.clear();
        return out;
    }

    std::vector<double> lossesFrom(const QString& plan, int world, const QString& weights, bool reference = false)
    {
        QStringList args{QStringLiteral("--plan"), plan, QStringLiteral("--init-from"), weights};
        if (reference) args << QStringLiteral("--reference");
        const RunResult run = LocalRunner::run(world, args);
        if (!run.ok()) qWarning("%s", qPrintable(run.describe()));
        return run.ok() ? losses(run.ranks[0]) : std::vector<double>{};
    }

    // Rank 0's event lines of a script, read with the core's reader.
    struct Reported {
        QStringList types;
        std::vector<std::int64_t> steps, checkpoints;
        std::vector<double> losses;
    };
    static Reported reported(const QString& out)
    {
        Reported r;
        for (const QString& line : out.split(QLatin1Char('\n'))) {
            if (!line.startsWith(QStringLiteral("@sb "))) continue;
            const sb::protocol::EventLine e = sb::protocol::parseEventLine(line.toStdString(), "script");
            if (!e.ok || !e.problem.empty() || e.envelope.rank != 0) {
                r.types << QStringLiteral("unreadable: ") + line;
                continue;
            }
            r.types << QString::fromStdString(e.envelope.type);
            if (e.envelope.type == sb::protocol::type::step) {
                const sb::protocol::Step s = sb::protocol::Step::fromJson(e.body);
                r.steps.push_back(s.step);
                r.losses.push_back(s.loss);
            }
            if (e.envelope.type == sb::protocol::type::checkpoint) {
                const sb::protocol::CheckpointEvent c = sb::protocol::CheckpointEvent::fromJson(e.body);
                if (c.status == "complete" && QDir(QString::fromStdString(c.path)).exists()) r.checkpoints.push_back(c.step);
            }
        }
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // The zygote every script of this suite forks from imports transformers too.
        const QString error = PythonZygote::instance(PythonZygote::transformersModules()).error();
        if (!error.isEmpty()) qWarning("%s", qPrintable(error));
        const bool ok = error.isEmpty();
        if (!ok && qEnvironmentVariableIsSet("CI"))
            QFAIL("SB_PYTHON is unset or lacks torch, transformers or safetensors: scripts/install-deps.sh makes the environment");
        if (!ok) QSKIP("SB_PYTHON is unset or lacks torch, transformers or safetensors (scripts/install-deps.sh makes the environment)");
    }

    // A user's script: GPT-NeoX from transformers under fully_shard at W=2,
    // 4 steps with a DCP checkpoint every 2, then started again to 6: every
    // line of rank 0 is the protocol, a step line per step with the printed
    // loss, its checkpoints as they are committed, and the second start
    // resumes at step 5.
    void aTransformersScriptReportsAsTheCore()
    {
        QTemporaryDir dir;
        const QString script = sourcePath(QStringLiteral("examples/pytorch/train_gpt_neox_fsdp2.py"));
        const QStringList common = {QStringLiteral("--checkpoint-dir"), dir.filePath(QStringLiteral("ckpt")),
                                    QStringLiteral("--checkpoint-every"), QStringLiteral("2"), QStringLiteral("--seq"), QStringLiteral("32")};
        const ScriptRun first = runScript(script, 2, {}, QStringList{QStringLiteral("--steps"), QStringLiteral("4")} + common);
        QVERIFY2(first.exitCode == 0, qPrintable(first.describe()));
        const Reported r = reported(first.out);
        QVERIFY2(r.types.size() >= 3 && r.types.front() == QStringLiteral("hello") && r.types.back() == QStringLiteral("done"),
                 qPrintable(r.types.join(QLatin1Char(' '))));
        QVERIFY(r.types.contains(QStringLiteral("plan")));
        QCOMPARE(r.steps, (std::vector<std::int64_t>{1, 2, 3, 4}));
        QCOMPARE(r.checkpoints, (std::vector<std::int64_t>{2, 4}));
        QCOMPARE(first.steps.size(), r.losses.size());
        for (std::size_t i = 0; i < r.losses.size(); ++i) QVERIFY(std::abs(r.losses[i] - first.steps[i].loss) < 1e-5);

        const ScriptRun second = runScript(script, 2, {}, QStringList{QStringLiteral("--steps"), QStringLiteral("6")} + common);
        QVERIFY2(second.exitCode == 0, qPrintable(second.describe()));
        QVERIFY2(second.out.contains(QStringLiteral("step-000004 at step 4")), qPrintable(second.out));
        QCOMPARE(reported(second.out).steps, (std::vector<std::int64_t>{5, 6}));
    }

    void planFromConfig_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("llama") << QStringLiteral("llama3-8b");
        QTest::newRow("gpt2") << QStringLiteral("gpt2-124m");
    }

    void planFromConfig()
    {
        QFETCH(QString, preset);
        const QString name = QStringLiteral("cfg-") + preset;
        QVERIFY(prepare(preset.toLatin1().constData(), name));
        const QString out = tmp_.filePath(name + QStringLiteral("-from-hf.plan.json"));
        const CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), tmp_.filePath(name), QStringLiteral("--device"),
                                 QStringLiteral("cpu"), QStringLiteral("-o"), out});
        QVERIFY2(o.exitCode == 0, qPrintable(o.text));
        const sb::LoadedPlan lp = sb::loadAndValidate(out.toStdString());
        QVERIFY(lp.ok());
        const sb::ModelConfig want = smallPlan(preset.toLatin1().constData(), 1, 4).model;
        const sb::ModelConfig& got = lp.plan.model;
        QCOMPARE(got.arch, want.arch);
        QCOMPARE(got.vocabSize, want.vocabSize);
        QCOMPARE(got.dim, want.dim);
        QCOMPARE(got.nLayers, want.nLayers);
        QCOMPARE(got.nHeads, want.nHeads);
        QCOMPARE(got.nKvHeads, want.nKvHeads);
        QCOMPARE(got.ffnHidden, want.ffnHidden);
        QCOMPARE(got.tiedEmbeddings, want.tiedEmbeddings);
        QCOMPARE(lp.tree->totalParams(), sb::buildModuleTree(want)->totalParams());
    }

    void sameLossesInBothLayouts_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("world");
        SB_ORACLE_ROW(true, "llama, 2 ranks") << QStringLiteral("llama3-8b") << 2;
        SB_ORACLE_ROW(false, "gpt2, 2 ranks") << QStringLiteral("gpt2-124m") << 2;
    }

    void sameLossesInBothLayouts()
    {
        QFETCH(QString, preset);
        QFETCH(int, world);
        const QString name = QStringLiteral("same-") + preset;
        QVERIFY(prepare(preset.toLatin1().constData(), name));
        const QString plan = writePlan(tmp_, name + QStringLiteral("-w.plan.json"), smallPlan(preset.toLatin1().constData(), world, 3));
        const std::vector<double> reference = lossesFrom(plan, world, tmp_.filePath(name + QStringLiteral(".safetensors")));
        QCOMPARE(reference.size(), std::size_t(3));
        for (const QString& source : {tmp_.filePath(name), tmp_.filePath(name + QStringLiteral("/model.safetensors")),
                                      tmp_.filePath(name + QStringLiteral("-sharded")),
                                      tmp_.filePath(name + QStringLiteral("-sharded/model.safetensors.index.json"))}) {
            const double diff = maxRelativeDifference(lossesFrom(plan, world, source), reference);
            QVERIFY2(diff < 1e-9, qPrintable(QStringLiteral("%1: relative difference %2").arg(source).arg(diff)));
        }
        // --reference reads the same way.
        const double ref = maxRelativeDifference(lossesFrom(plan, 1, tmp_.filePath(name), true),
                                                 lossesFrom(plan, 1, tmp_.filePath(name + QStringLiteral(".safetensors")), true));
        QVERIFY2(ref < 1e-9, qPrintable(QString::number(ref)));
        if (preset == QStringLiteral("llama3-8b")) { // renaming alone is silently wrong; the permutation is what fixes it
            const double wrong = maxRelativeDifference(lossesFrom(plan, world, tmp_.filePath(name + QStringLiteral("-renamed"))), reference);
            QVERIFY2(wrong > 1e-5, qPrintable(QString::number(wrong)));
        }
    }

    void exportsToHf_data()
    {
        QTest::addColumn<QString>("preset");
        SB_ORACLE_ROW(true, "llama") << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(false, "gpt2") << QStringLiteral("gpt2-124m");
    }

    void exportsToHf()
    {
        // A sharded checkpoint of 2 ranks, exported as the core's file and as
        // Hugging Face's: bit for bit what transformers' conversion makes of the
        // former (to_hf.py), in F32, in BF16 (PyTorch's rounding) and in shards;
        // and read back by --init-from, the same losses.
        QFETCH(QString, preset);
        const QByteArray name = preset.toLatin1();
        sb::Plan p = smallPlan(name.constData(), 2, 4);
        p.training.checkpoint.dir = tmp_.filePath(QStringLiteral("export-") + preset).toStdString();
        p.training.checkpoint.interval = 4;
        const QString plan = writePlan(tmp_, QStringLiteral("export-%1.plan.json").arg(preset), p);
        const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), plan});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const QString ckpt = QString::fromStdString(p.training.checkpoint.dir);
        const QString base = tmp_.filePath(QStringLiteral("out-") + preset);
        const QString core = base + QStringLiteral(".safetensors");
        for (const QStringList& args : {QStringList{QStringLiteral("-o"), core},
                                        QStringList{QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("-o"), base + QStringLiteral("-hf")},
                                        QStringList{QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("--dtype"), QStringLiteral("bf16"),
                                                    QStringLiteral("-o"), base + QStringLiteral("-bf16")},
                                        QStringList{QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("--max-shard-size"),
                                                    QStringLiteral("0.00005"), QStringLiteral("-o"), base + QStringLiteral("-shards")}}) {
            const CliOutput o = runCli(QStringList{QStringLiteral("checkpoint"), QStringLiteral("export"), ckpt, QStringLiteral("--quiet")} + args);
            QVERIFY2(o.exitCode == 0, qPrintable(o.text));
        }
        QVERIFY(QFile::exists(base + QStringLiteral("-shards/model.safetensors.index.json")));
        QVERIFY(runHfScript({hfScript("to_hf.py"), plan, core, base + QStringLiteral("-reference"), QStringLiteral("--no-buffers")}));
        for (const QStringList& args : {QStringList{base + QStringLiteral("-hf")}, QStringList{base + QStringLiteral("-shards")},
                                        QStringList{base + QStringLiteral("-bf16"), QStringLiteral("--bf16")}}) {
            QVERIFY2(runHfScript(QStringList{hfScript("compare_hf.py"), args.front(), base + QStringLiteral("-reference")} + args.mid(1)),
                     qPrintable(args.front()));
        }
        const QString again = writePlan(tmp_, QStringLiteral("export-%1-again.plan.json").arg(preset), onOneWindow(smallPlan(name.constData(), 2, 2)));
        const std::vector<double> reference = lossesFrom(again, 2, core);
        QVERIFY(!reference.empty());
        QVERIFY(maxRelativeDifference(lossesFrom(again, 2, base + QStringLiteral("-shards")), reference) < 1e-9);
        // transformers loads the export, one file and shards, and gives the core's first-step loss.
        const QStringList exported{base + QStringLiteral("-hf"), base + QStringLiteral("-shards")};
        const std::vector<double> hf = transformersLosses(again, exported);
        QCOMPARE(hf.size(), std::size_t(exported.size()));
        for (std::size_t i = 0; i < hf.size(); ++i) {
            qInfo("%s", qPrintable(describe(exported[int(i)], hf[i], reference[0])));
            QVERIFY2(relativeTo(hf[i], reference[0]) <= kTransformersTolerance, qPrintable(describe(exported[int(i)], hf[i], reference[0])));
        }
        // An existing, non-empty folder is not overwritten.
        const CliOutput twice = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), ckpt, QStringLiteral("--quiet"),
                                     QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("-o"), base + QStringLiteral("-hf")});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.text.contains(QStringLiteral("not empty")), qPrintable(twice.text));
    }

    void transformersGivesTheCoresLoss_data()
    {
        QTest::addColumn<QString>("preset");
        SB_ORACLE_ROW(true, "llama") << QStringLiteral("llama3-8b");
        SB_ORACLE_ROW(false, "gpt2") << QStringLiteral("gpt2-124m");
    }

    // transformers loads what to_hf.py writes from the core's weights (one file
    // and shards) and, on the tokens the core trains on, gives the core's loss
    // of its first step (before any update); Llama's rows left unpermuted do not.
    void transformersGivesTheCoresLoss()
    {
        QFETCH(QString, preset);
        const QByteArray name = preset.toLatin1();
        const QString base = QStringLiteral("oracle-") + preset;
        QVERIFY(prepare(name.constData(), base));
        const QString plan = writePlan(tmp_, base + QStringLiteral("-window.plan.json"), onOneWindow(smallPlan(name.constData(), 1, 1)));
        const std::vector<double> core = lossesFrom(plan, 1, tmp_.filePath(base + QStringLiteral(".safetensors")));
        QCOMPARE(core.size(), std::size_t(1));
        const bool llama = preset == QStringLiteral("llama3-8b");
        QStringList folders{tmp_.filePath(base), tmp_.filePath(base + QStringLiteral("-sharded"))};
        if (llama) folders << tmp_.filePath(base + QStringLiteral("-renamed"));
        const std::vector<double> hf = transformersLosses(plan, folders);
        QCOMPARE(hf.size(), std::size_t(folders.size()));
        for (std::size_t i = 0; i < hf.size(); ++i) qInfo("%s", qPrintable(describe(folders[int(i)], hf[i], core[0])));
        for (std::size_t i = 0; i < 2; ++i)
            QVERIFY2(relativeTo(hf[i], core[0]) <= kTransformersTolerance, qPrintable(describe(folders[int(i)], hf[i], core[0])));
        if (llama) // what renaming alone does to a Llama in transformers
            QVERIFY2(relativeTo(hf[2], core[0]) > 10 * kTransformersTolerance, qPrintable(describe(folders[2], hf[2], core[0])));
    }

    // Llama 3.1's RoPE scaling: a Hugging Face folder whose config.json has
    // rope_scaling of type llama3 becomes a plan with that scaling (plan
    // --from-hf); on those weights the core's first-step loss is
    // transformers'; transformers without the scaling gives another loss (so
    // the scaling is exercised); and the core's export carries it back.
    void ropeScalingAsTransformers()
    {
        sb::Plan trained = smallPlan("llama3.1-8b", 1, 3);
        // Wavelengths of 6.3, 32, 165, ... positions against 40 / 4 = 10 and
        // 40 / 1: each branch of the scaling (kept, interpolated, divided).
        trained.model.ropeScaling = {true, 8.0, 1.0, 4.0, 40};
        trained.training.checkpoint.dir = tmp_.filePath(QStringLiteral("rope31-ckpt")).toStdString(); // for the export below
        trained.training.checkpoint.interval = 3;
        const QString plan = writePlan(tmp_, QStringLiteral("rope31.plan.json"), trained);
        const QString weights = tmp_.filePath(QStringLiteral("rope31.safetensors"));
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), plan, QStringLiteral("--export-final"), weights});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const QString hf = tmp_.filePath(QStringLiteral("rope31-hf")), plain = tmp_.filePath(QStringLiteral("rope31-unscaled"));
        QVERIFY(runHfScript({hfScript("to_hf.py"), plan, weights, hf}));
        QVERIFY(runHfScript({hfScript("to_hf.py"), plan, weights, plain, QStringLiteral("--no-rope-scaling")}));

        const QString fromHf = tmp_.filePath(QStringLiteral("rope31-from-hf.plan.json"));
        const CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), hf, QStringLiteral("--device"), QStringLiteral("cpu"),
                                 QStringLiteral("-o"), fromHf});
        QVERIFY2(o.exitCode == 0, qPrintable(o.text));
        const sb::LoadedPlan lp = sb::loadAndValidate(fromHf.toStdString());
        QVERIFY(lp.ok());
        QVERIFY(lp.plan.model.ropeScaling == trained.model.ropeScaling);

        sb::Plan window = onOneWindow(smallPlan("llama3.1-8b", 1, 1));
        window.model.ropeScaling = trained.model.ropeScaling;
        const QString windowPlan = writePlan(tmp_, QStringLiteral("rope31-window.plan.json"), window);
        const std::vector<double> core = lossesFrom(windowPlan, 1, weights);
        QCOMPARE(core.size(), std::size_t(1));
        const std::vector<double> ref = lossesFrom(windowPlan, 1, weights, true);
        QCOMPARE(ref.size(), std::size_t(1));
        const std::vector<double> hfLoss = transformersLosses(windowPlan, {hf, plain});
        QCOMPARE(hfLoss.size(), std::size_t(2));
        qInfo("%s", qPrintable(describe(hf, hfLoss[0], core[0])));
        qInfo("%s", qPrintable(describe(plain, hfLoss[1], core[0])));
        QVERIFY2(relativeTo(hfLoss[0], core[0]) <= kTransformersTolerance, qPrintable(describe(hf, hfLoss[0], core[0])));
        QVERIFY2(relativeTo(hfLoss[0], ref[0]) <= kTransformersTolerance, qPrintable(describe(hf, hfLoss[0], ref[0])));
        QVERIFY2(relativeTo(hfLoss[1], core[0]) > 10 * kTransformersTolerance, qPrintable(describe(plain, hfLoss[1], core[0])));

        // checkpoint export --format hf of the run's last checkpoint (the
        // weights above) writes the scaling; transformers reads it back.
        const QString exported = tmp_.filePath(QStringLiteral("rope31-export"));
        const CliOutput e = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), QString::fromStdString(trained.training.checkpoint.dir),
                                 QStringLiteral("--quiet"), QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("-o"), exported});
        QVERIFY2(e.exitCode == 0, qPrintable(e.text));
        const std::vector<double> again = transformersLosses(windowPlan, {exported, hf});
        QCOMPARE(again.size(), std::size_t(2));
        QVERIFY2(relativeTo(again[0], again[1]) <= kTransformersTolerance, qPrintable(describe(exported, again[0], again[1])));
    }

    void familyAsTransformers_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("arch");
        SB_ORACLE_ROW(true, "llama 3.2: RoPE scaling, tied") << QStringLiteral("llama3.2") << QStringLiteral("llama");
        SB_ORACLE_ROW(false, "mistral") << QStringLiteral("mistral") << QStringLiteral("mistral");
        SB_ORACLE_ROW(false, "qwen2: q/k/v biases, tied, eps 1e-6") << QStringLiteral("qwen2") << QStringLiteral("qwen2");
        SB_ORACLE_ROW(true, "qwen3: q/k norms, head_dim 32") << QStringLiteral("qwen3") << QStringLiteral("qwen3");
    }

    // The oracle for each family: a tiny random model written by transformers
    // itself (data/hf/make_tiny_hf.py: its config class and save_pretrained).
    // plan --from-hf reads its family and sizes; after --init-from, the core's
    // first-step loss and gradient norm (before any update) are transformers'
    // on the same tokens, at 1 and 2 ranks; and the core's checkpoint after two
    // steps, exported with --format hf, loads into transformers with the loss
    // the core computes on it.
    void familyAsTransformers()
    {
        QFETCH(QString, family);
        QFETCH(QString, arch);
        const QString hf = tmp_.filePath(QStringLiteral("tiny-") + family);
        QVERIFY(runHfScript({hfScript("make_tiny_hf.py"), family, hf}));
        const QString planned = tmp_.filePath(QStringLiteral("tiny-%1.plan.json").arg(family));
        const CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), hf, QStringLiteral("--device"), QStringLiteral("cpu"),
                                 QStringLiteral("-o"), planned});
        QVERIFY2(o.exitCode == 0, qPrintable(o.text));
        const sb::LoadedPlan lp = sb::loadAndValidate(planned.toStdString());
        QVERIFY(lp.ok());
        QCOMPARE(QString::fromLatin1(sb::archName(lp.plan.model.arch)), arch);

        auto sized = [&](int world, int steps) { // the planned model, trained small
            sb::Plan p = lp.plan;
            p.mesh.procsPerNode = world;
            p.training.microBatch = 2;
            p.training.seqLen = 16;
            p.training.gradAccum = 1;
            p.training.steps = steps;
            return p;
        };
        auto windowPlan = [&](int world, int steps, const QString& name) { return writePlan(tmp_, name, onOneWindow(sized(world, steps))); };
        QString text;
        const QString one = windowPlan(1, 1, QStringLiteral("tiny-%1-w1.plan.json").arg(family));
        QVERIFY(runHfScript({hfScript("hf_loss.py"), one, hf, QStringLiteral("--grad-norm")}, &text));
        const QStringList oracle = text.trimmed().split(QLatin1Char(' '));
        QCOMPARE(oracle.size(), 2);
        const double hfLoss = oracle[0].toDouble(), hfNorm = oracle[1].toDouble();
        for (int world : {1, 2}) {
            const QString plan = world == 1 ? one : windowPlan(world, 1, QStringLiteral("tiny-%1-w%2.plan.json").arg(family).arg(world));
            const RunResult run = LocalRunner::run(world, {QStringLiteral("--plan"), plan, QStringLiteral("--init-from"), hf});
            QVERIFY2(run.ok(), qPrintable(run.describe()));
            const std::vector<QJsonObject> steps = run.ranks[0].ofType(QStringLiteral("step"));
            QCOMPARE(steps.size(), std::size_t(1));
            const double loss = steps[0].value(QStringLiteral("loss")).toDouble();
            const double norm = steps[0].value(QStringLiteral("grad_norm")).toDouble();
            qInfo("%s W=%d: loss %s; gradient norm: transformers %.17g, core %.17g, relative difference %.3g", qPrintable(family), world,
                  qPrintable(describe(hf, hfLoss, loss)), hfNorm, norm, relativeTo(norm, hfNorm));
            QVERIFY2(relativeTo(loss, hfLoss) <= kTransformersTolerance, qPrintable(describe(hf, hfLoss, loss)));
            QVERIFY2(relativeTo(norm, hfNorm) <= kGradNormTolerance, qPrintable(QString::number(relativeTo(norm, hfNorm))));
        }

        // Two steps from those weights, a checkpoint, exported to Hugging Face's layout.
        sb::Plan trained = sized(2, 2);
        trained.training.checkpoint.dir = tmp_.filePath(QStringLiteral("tiny-%1-ckpt").arg(family)).toStdString();
        trained.training.checkpoint.interval = 2;
        const QString trainedPlan = writePlan(tmp_, QStringLiteral("tiny-%1-trained.plan.json").arg(family), trained);
        const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), trainedPlan, QStringLiteral("--init-from"), hf});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const QString exported = tmp_.filePath(QStringLiteral("tiny-%1-export").arg(family));
        const CliOutput e = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), QString::fromStdString(trained.training.checkpoint.dir),
                                 QStringLiteral("--quiet"), QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("-o"), exported});
        QVERIFY2(e.exitCode == 0, qPrintable(e.text));
        const std::vector<double> core = lossesFrom(one, 1, exported);
        QCOMPARE(core.size(), std::size_t(1));
        const std::vector<double> back = transformersLosses(one, {exported});
        QCOMPARE(back.size(), std::size_t(1));
        QVERIFY2(relativeTo(back[0], core[0]) <= kTransformersTolerance, qPrintable(describe(exported, back[0], core[0])));
        QVERIFY2(relativeTo(back[0], hfLoss) > 10 * kTransformersTolerance, "the export is of the trained weights");
    }

    // A sliding window (Mistral v0.1's, Qwen's use_sliding_window) is kept in
    // the plan; the core attends to the whole sequence, so a sequence longer
    // than the window is refused, naming the field, by the plan and the core.
    void slidingWindowBoundsTheSequence()
    {
        const QString dir = tmp_.filePath(QStringLiteral("sliding"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeText(dir + QStringLiteral("/config.json"), R"({"model_type": "qwen2", "vocab_size": 100, "hidden_size": 64,
            "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "max_position_embeddings": 64, "use_sliding_window": true, "sliding_window": 24, "max_window_layers": 0})"));
        const QString out = dir + QStringLiteral("/p.json");
        CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), dir, QStringLiteral("--device"), QStringLiteral("cpu"),
                              QStringLiteral("--seq"), QStringLiteral("32"), QStringLiteral("-o"), out});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.text.contains(QStringLiteral("model.sliding_window")) && o.text.contains(QStringLiteral("sliding window of 24 tokens")),
                 qPrintable(o.text));
        QVERIFY(!QFile::exists(out));
        o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), dir, QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("-o"), out});
        QVERIFY2(o.exitCode == 0, qPrintable(o.text)); // the default sequence is the window
        sb::LoadedPlan lp = sb::loadAndValidate(out.toStdString());
        QVERIFY(lp.ok());
        QCOMPARE(lp.plan.model.slidingWindow, std::int64_t(24));
        QCOMPARE(lp.plan.training.seqLen, 24);
        sb::Plan longer = lp.plan;
        longer.mesh.procsPerNode = 1;
        longer.training.seqLen = 32;
        const QString plan = writePlan(tmp_, QStringLiteral("sliding-long.plan.json"), longer);
        const RunResult r = LocalRunner::run(1, {QStringLiteral("--plan"), plan});
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY2(r.ranks[0].stdErr.contains(QStringLiteral("sliding_window")), qPrintable(r.ranks[0].stdErr));
    }

    void refusesBadCheckpoints()
    {
        QVERIFY(prepare("llama3-8b", QStringLiteral("bad")));
        const QString plan = writePlan(tmp_, QStringLiteral("bad-w.plan.json"), smallPlan("llama3-8b", 1, 2));
        auto core = [&](const QString& weights) {
            return LocalRunner::run(1, {QStringLiteral("--plan"), plan, QStringLiteral("--init-from"), weights});
        };
        // An index that maps a tensor to a file that is not there.
        const QString sharded = tmp_.filePath(QStringLiteral("bad-sharded"));
        QVERIFY(QFile::remove(sharded + QStringLiteral("/model-00002-of-00003.safetensors")));
        RunResult r = core(sharded);
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY2(r.ranks[0].stdErr.contains(QStringLiteral("model-00002-of-00003.safetensors")), qPrintable(r.ranks[0].stdErr));
        // A truncated single file.
        QFile f(tmp_.filePath(QStringLiteral("bad/model.safetensors")));
        QVERIFY(f.resize(100));
        r = core(tmp_.filePath(QStringLiteral("bad")));
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY2(r.ranks[0].stdErr.contains(QStringLiteral("model.safetensors")), qPrintable(r.ranks[0].stdErr));
        // A Hugging Face tensor name of a megabyte (std::regex would recurse once per character).
        const QByteArray header = "{\"h.0." + QByteArray(1 << 20, 'a') + "\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
        QByteArray file(8, '\0');
        for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
        QVERIFY(writeText(tmp_.filePath(QStringLiteral("long-name.safetensors")), file + header + QByteArray(4, '\0')));
        const QString gpt2 = writePlan(tmp_, QStringLiteral("long-name.plan.json"), smallPlan("gpt2-124m", 1, 2));
        r = LocalRunner::run(1, {QStringLiteral("--plan"), gpt2, QStringLiteral("--init-from"), tmp_.filePath(QStringLiteral("long-name.safetensors"))});
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY2(r.ranks[0].stdErr.contains(QStringLiteral("has no tensor for")), qPrintable(r.ranks[0].stdErr.left(2000)));
        // A folder with neither file.
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("empty")));
        r = core(tmp_.filePath(QStringLiteral("empty")));
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY2(r.ranks[0].stdErr.contains(QStringLiteral("neither model.safetensors")), qPrintable(r.ranks[0].stdErr));
    }
};

QTEST_GUILESS_MAIN(TestEngineHfImport)
#include "tst_engine_hf_import.moc"
