// The exported FSDP2 script: valid Python (python3 -m py_compile), units in
// bottom-up fully_shard order with each unit's policy, and the FSDP2 calls
// (MixedPrecisionPolicy, CPUOffloadPolicy, reshard_after_forward, prefetch
// lists, DCP). The script is read with Python's ast (data/export/read_script.py),
// so PyTorch is not needed.
#include "test_support.hpp"

#include "export/fsdp2_script.hpp"
#include "plan/resolve.hpp"

#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace sb;
using sbtest::q;

Q_DECLARE_METATYPE(sb::Plan)

namespace {

QString python() { return QStandardPaths::findExecutable(QStringLiteral("python3")); }

bool runPython(const QStringList& args, QByteArray& out, QByteArray& err)
{
    QProcess p;
    p.start(python(), args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) return false;
    out = p.readAllStandardOutput();
    err = p.readAllStandardError();
    return p.exitCode() == 0;
}

json::Value pyReshard(const Reshard& r, bool root)
{
    switch (r.kind) {
    case Reshard::Default: return !root;
    case Reshard::True: return true;
    case Reshard::False: return false;
    case Reshard::Group: return r.group;
    }
    return true;
}

json::Value pyDtype(const std::optional<DType>& t) { return t ? json::Value(dtypeTorchName(*t)) : json::Value(); }

json::Value pyList(const std::vector<std::string>& v)
{
    json::Value a = json::Value::array();
    for (const std::string& s : v) a.push(s);
    return a;
}

Plan nestedUnits()
{
    Plan p = defaultPlan(*presetConfig("transformer"));
    p.units.resize(3); // root, layers.0, layers.1
    for (const char* m : {"layers.0.feed_forward.w1", "layers.0.attention", "layers.1.feed_forward", "norm"}) {
        UnitPolicy u;
        u.module = m;
        p.units.push_back(u);
    }
    return p;
}

Plan gpt2Mixed()
{
    Plan p = defaultPlan(*presetConfig("gpt2-124m"));
    for (std::size_t i = 1; i < p.units.size(); ++i) {
        p.units[i].mp = {DType::BF16, DType::F32, std::nullopt, true};
        if (i % 3 == 0) p.units[i].reshard = {Reshard::Group, 2};
        if (i % 4 == 0) p.units[i].offload = true;
    }
    p.units[0].mp = {DType::BF16, DType::F32, DType::F32, false};
    p.units[12].reshard = {Reshard::False, 0};
    return p;
}

Plan llamaPrefetch()
{
    ModelConfig m = *presetConfig("llama3-8b");
    m.nLayers = 4;
    Plan p = defaultPlan(m);
    p.units[1].forwardPrefetch = {"layers.1", "layers.2"};
    p.units[4].backwardPrefetch = {"layers.2", "layers.1"};
    for (std::size_t i = 1; i < p.units.size(); ++i) p.units[i].ac = Checkpointing::Full;
    p.units[0].ignoredParams = {"norm.weight"};
    p.training.checkpoint = {"/ckpt", 50, 2, true};
    p.training.optimizer.schedule = "cosine";
    return p;
}

Plan importedOddName()
{
    const json::ParseResult tree = json::parse(sbtest::readText(sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json")));
    ModelConfig m;
    m.preset = "imported";
    m.arch = Arch::Imported;
    m.importedTree = tree ? *tree.value : json::Value();
    // A tab, not a newline: names and paths are one line (plan.control_char); the script escapes both.
    m.importedFrom = "my \"odd\" model\\ from\tC:\\trees\\tree.json )\"\"\" '''";
    Plan p = defaultPlan(m);
    p.name = "name with \"\"\" triple quotes \\";
    p.mesh.replicate = 1;
    p.units[1].offload = true;
    return p;
}

} // namespace

class TestExportScript : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        if (python().isEmpty()) QSKIP("python3 is not installed");
        QVERIFY(tmp_.isValid());
    }

    void scripts_data()
    {
        QTest::addColumn<Plan>("plan");
        QTest::newRow("tutorial") << defaultPlan(*presetConfig("transformer"));
        QTest::newRow("gpt2 mixed precision, offload, reshard k") << gpt2Mixed();
        QTest::newRow("llama prefetch, checkpointing, ignored") << llamaPrefetch();
        QTest::newRow("nested units") << nestedUnits();
        QTest::newRow("imported, odd names") << importedOddName();
        const QDir golden(sbtest::dataPath(QStringLiteral("estimate/golden")));
        for (const QString& f : golden.entryList({QStringLiteral("*.plan.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << loadPlanFile(golden.filePath(f).toStdString()).plan;
    }
    void scripts()
    {
        QFETCH(Plan, plan);
        const LoadedPlan lp = validateLoaded(PlanReadResult{plan, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        const std::string script = exportFsdp2Script(lp.plan, *lp.tree);
        const QString path = tmp_.filePath(QStringLiteral("train_%1.py").arg(QString::fromUtf8(QTest::currentDataTag())).replace(QLatin1Char(' '), QLatin1Char('_')).remove(QLatin1Char(',')));
        QVERIFY(sbtest::writeBytes(path, QByteArray::fromStdString(script)));

        QByteArray out, err;
        QVERIFY2(runPython({QStringLiteral("-m"), QStringLiteral("py_compile"), path}, out, err), err.constData());
        QVERIFY2(runPython({sbtest::dataPath(QStringLiteral("export/read_script.py")), path}, out, err), err.constData());
        const json::ParseResult parsed = json::parse(out.toStdString());
        QVERIFY2(parsed, parsed.error.toString().c_str());
        const json::Value& s = *parsed.value;

        // Units bottom-up: each after all the units nested in it; the root last.
        const json::Array& units = s.find("UNITS")->asArray();
        QCOMPARE(units.size(), lp.plan.units.size());
        std::vector<int> order;
        for (const json::Value& u : units) order.push_back(lp.tree->findModule(u.asArray()[0].asString()));
        QCOMPARE(order.back(), 0);
        for (std::size_t i = 0; i < order.size(); ++i) {
            QVERIFY(order[i] >= 0);
            for (std::size_t j = i + 1; j < order.size(); ++j)
                QVERIFY2(!lp.tree->isInSubtree(order[j], order[i]) || order[j] == order[i],
                         qPrintable(QStringLiteral("%1 is sharded after its ancestor %2").arg(q(lp.tree->module(order[j]).path), q(lp.tree->module(order[i]).path))));
        }
        // Each unit's policy, field by field.
        for (const json::Value& u : units) {
            const json::Array& f = u.asArray();
            QCOMPARE(static_cast<int>(f.size()), 11);
            const UnitPolicy* pol = lp.plan.findUnit(f[0].asString());
            QVERIFY(pol);
            const bool root = pol->module.empty();
            QVERIFY2(f[1] == pyReshard(pol->reshard, root), f[1].dump().c_str());
            QVERIFY(f[2] == pyDtype(pol->mp.paramDtype));
            QVERIFY(f[3] == pyDtype(pol->mp.reduceDtype));
            QVERIFY(f[4] == pyDtype(pol->mp.outputDtype));
            QCOMPARE(f[5].asBool(), pol->mp.castForwardInputs);
            QCOMPARE(f[6].asBool(), pol->offload);
            QCOMPARE(f[7].asBool(), pol->ac == Checkpointing::Full);
            QVERIFY(f[8] == pyList(pol->forwardPrefetch));
            QVERIFY(f[9] == pyList(pol->backwardPrefetch));
            QVERIFY(f[10] == pyList(pol->ignoredParams));
        }

        // The FSDP2 API the script drives.
        const json::Value* applyCalls = s.find("calls")->find("apply_fsdp");
        QVERIFY(applyCalls);
        auto calls = [](const json::Value* list, const char* name) {
            for (const json::Value& c : list->asArray())
                if (c.asString() == name) return true;
            return false;
        };
        for (const char* fn : {"fully_shard", "MixedPrecisionPolicy", "CPUOffloadPolicy", "OffloadPolicy", "make_checkpointed",
                               "set_modules_to_forward_prefetch", "set_modules_to_backward_prefetch", "get_submodule"})
            QVERIFY2(calls(applyCalls, fn), fn);
        // main() sets up the process group and its reporting; train() trains.
        const json::Value* mainCalls = s.find("calls")->find("main");
        const json::Value* trainCalls = s.find("calls")->find("train");
        QVERIFY(mainCalls && trainCalls);
        for (const char* fn : {"init_process_group", "Reporter", "train", "destroy_process_group"})
            QVERIFY2(calls(mainCalls, fn), fn);
        for (const char* fn : {"init_device_mesh", "build_model", "apply_fsdp", "to_empty", "AdamW", "set_requires_gradient_sync",
                               "clip_grad_norm_", "init_weights", "latest_checkpoint", "load_checkpoint", "save_checkpoint",
                               "all_reduce", "step_begin", "step", "checkpoint", "done"})
            QVERIFY2(calls(trainCalls, fn), fn);
        const QString text = q(script);
        QVERIFY(text.contains(QStringLiteral("fully_shard(module, mesh=mesh, reshard_after_forward=reshard, mp_policy=mp,")));
        QVERIFY(text.contains(QStringLiteral("dcp.save(")));
        QVERIFY(text.contains(QStringLiteral("with torch.device(\"meta\"):")));

        // Tables match the plan.
        const json::Value& mesh = *s.find("MESH");
        QCOMPARE(static_cast<int>(mesh.find("replicate")->asInt()), lp.plan.mesh.replicate);
        QCOMPARE(q(mesh.find("device")->asString()), lp.plan.mesh.device == Device::Cuda ? QStringLiteral("cuda") : QStringLiteral("cpu"));
        const json::Value& train = *s.find("TRAIN");
        QCOMPARE(static_cast<int>(train.find("micro_batch")->asInt()), lp.plan.training.microBatch);
        QCOMPARE(static_cast<int>(train.find("seq_len")->asInt()), lp.plan.training.seqLen);
        QCOMPARE(static_cast<int>(train.find("grad_accum")->asInt()), lp.plan.training.gradAccum);
        QCOMPARE(train.find("lr")->asDouble(), lp.plan.training.optimizer.lr);
        QCOMPARE(q(train.find("checkpoint_dir")->asString()), q(lp.plan.training.checkpoint.dir));
        const json::Value& model = *s.find("MODEL");
        QCOMPARE(q(model.find("arch")->asString()), q(archName(lp.plan.model.arch)));
        if (lp.plan.model.arch != Arch::Imported) {
            QCOMPARE(static_cast<qint64>(model.find("n_layers")->asInt()), static_cast<qint64>(lp.plan.model.nLayers));
            QCOMPARE(static_cast<qint64>(model.find("vocab_size")->asInt()), static_cast<qint64>(lp.plan.model.vocabSize));
        } else {
            QVERIFY(calls(s.find("calls")->find("build_model"), "NotImplementedError"));
        }
    }
};

QTEST_GUILESS_MAIN(TestExportScript)
#include "tst_export_script.moc"
