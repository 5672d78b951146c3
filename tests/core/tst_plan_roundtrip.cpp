// Plans survive write -> read unchanged: presets, a plan with every field
// away from its default, an imported-tree plan, and the file route.
#include "test_support.hpp"

#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

using namespace sb;
using sbtest::q;

namespace {

// Field by field, so that a field the writer forgets fails here even if the
// reader forgets it too.
void compareModels(const ModelConfig& a, const ModelConfig& b)
{
    QCOMPARE(q(a.preset), q(b.preset));
    QCOMPARE(a.arch, b.arch);
    QCOMPARE(a.vocabSize, b.vocabSize);
    QCOMPARE(a.dim, b.dim);
    QCOMPARE(a.nLayers, b.nLayers);
    QCOMPARE(a.nHeads, b.nHeads);
    QCOMPARE(a.nKvHeads, b.nKvHeads);
    QCOMPARE(a.ffnHidden, b.ffnHidden);
    QCOMPARE(a.maxSeqLen, b.maxSeqLen);
    QCOMPARE(a.tiedEmbeddings, b.tiedEmbeddings);
    QCOMPARE(a.ropeTheta, b.ropeTheta);
    QVERIFY(a.ropeScaling == b.ropeScaling); // every field (RopeScaling::operator==)
    QCOMPARE(a.explicitHeadDim, b.explicitHeadDim);
    QCOMPARE(a.normEps, b.normEps);
    QCOMPARE(a.slidingWindow, b.slidingWindow);
    QCOMPARE(a.dtype, b.dtype);
    QVERIFY(a.importedTree == b.importedTree);
    QCOMPARE(q(a.importedFrom), q(b.importedFrom));
}

void comparePlans(const Plan& a, const Plan& b)
{
    QCOMPARE(a.version, b.version);
    QCOMPARE(q(a.name), q(b.name));
    compareModels(a.model, b.model);
    QCOMPARE(a.mesh.nodes, b.mesh.nodes);
    QCOMPARE(a.mesh.procsPerNode, b.mesh.procsPerNode);
    QCOMPARE(a.mesh.replicate, b.mesh.replicate);
    QCOMPARE(a.mesh.device, b.mesh.device);
    QCOMPARE(q(a.mesh.deviceName), q(b.mesh.deviceName));
    QCOMPARE(static_cast<quint64>(a.mesh.deviceMemoryBytes), static_cast<quint64>(b.mesh.deviceMemoryBytes));
    QCOMPARE(static_cast<quint64>(a.mesh.hostMemoryBytes), static_cast<quint64>(b.mesh.hostMemoryBytes));
    QCOMPARE(a.units.size(), b.units.size());
    for (std::size_t i = 0; i < a.units.size(); ++i) QVERIFY2(a.units[i] == b.units[i], a.units[i].module.c_str());
    const TrainingConfig& s = a.training;
    const TrainingConfig& t = b.training;
    QCOMPARE(s.microBatch, t.microBatch);
    QCOMPARE(s.seqLen, t.seqLen);
    QCOMPARE(s.gradAccum, t.gradAccum);
    QCOMPARE(s.steps, t.steps);
    QCOMPARE(static_cast<quint64>(s.seed), static_cast<quint64>(t.seed));
    QCOMPARE(s.gradClip, t.gradClip);
    QCOMPARE(s.optimizer.lr, t.optimizer.lr);
    QCOMPARE(s.optimizer.beta1, t.optimizer.beta1);
    QCOMPARE(s.optimizer.beta2, t.optimizer.beta2);
    QCOMPARE(s.optimizer.eps, t.optimizer.eps);
    QCOMPARE(s.optimizer.weightDecay, t.optimizer.weightDecay);
    QCOMPARE(s.optimizer.warmupSteps, t.optimizer.warmupSteps);
    QCOMPARE(q(s.optimizer.schedule), q(t.optimizer.schedule));
    QCOMPARE(s.optimizer.minLrRatio, t.optimizer.minLrRatio);
    QVERIFY(s.optimizer.noDecay == t.optimizer.noDecay);
    QCOMPARE(s.data.kind, t.data.kind);
    QCOMPARE(q(s.data.path), q(t.data.path));
    QCOMPARE(s.data.dtype, t.data.dtype);
    QCOMPARE(s.eval.every, t.eval.every);
    QCOMPARE(s.eval.batches, t.eval.batches);
    QCOMPARE(q(s.eval.path), q(t.eval.path));
    QCOMPARE(s.eval.dtype, t.eval.dtype);
    QCOMPARE(s.eval.holdout, t.eval.holdout);
    QCOMPARE(q(s.checkpoint.dir), q(t.checkpoint.dir));
    QCOMPARE(s.checkpoint.interval, t.checkpoint.interval);
    QCOMPARE(s.checkpoint.keep, t.checkpoint.keep);
    QCOMPARE(s.checkpoint.async, t.checkpoint.async);
}

// write, read, compare; then the text is a fixed point.
void roundTrip(const Plan& plan)
{
    const std::string text = planToString(plan);
    const PlanReadResult read = planFromString(text);
    QVERIFY2(read.problems.empty(), qPrintable(sbtest::problemsText(read.problems)));
    comparePlans(plan, read.plan);
    QVERIFY(planToJson(plan) == planToJson(read.plan));
    QCOMPARE(q(planToString(read.plan)), q(text));
}

Plan everythingSet()
{
    ModelConfig m = *presetConfig("llama3-8b");
    m.preset = "llama-custom";
    m.vocabSize = 32000;
    m.dim = 512;
    m.nLayers = 4;
    m.nHeads = 8;
    m.nKvHeads = 2;
    m.ffnHidden = 1376;
    m.maxSeqLen = 4096;
    m.tiedEmbeddings = true;
    m.ropeTheta = 123456.75;
    m.ropeScaling = {true, 16.5, 0.5, 3.25, 4097};
    m.arch = Arch::Qwen3;
    m.explicitHeadDim = 96;
    m.normEps = 3.5e-6;
    m.slidingWindow = 8192;
    m.dtype = DType::BF16;
    Plan p = defaultPlan(m);
    p.name = "every field \"quoted\", caf\u00e9 \\ tab\t";
    p.mesh.nodes = 4;
    p.mesh.procsPerNode = 8;
    p.mesh.replicate = 2;
    p.mesh.device = Device::Cuda;
    p.mesh.deviceName = "A100 40GB";
    p.mesh.deviceMemoryBytes = 40 * kGiB + 123456789; // not a whole number of GiB
    p.mesh.hostMemoryBytes = 512 * kGiB + 1;
    p.units[0].mp = {DType::BF16, DType::F32, DType::F32, false};
    p.units[0].ignoredParams = {"norm.weight"};
    p.units[1].reshard = {Reshard::Group, 4};
    p.units[1].mp = {DType::F16, DType::F16, std::nullopt, true};
    p.units[1].forwardPrefetch = {"layers.2", "layers.3"};
    p.units[2].reshard = {Reshard::False, 0};
    p.units[2].offload = true;
    p.units[2].backwardPrefetch = {"layers.0"};
    p.units[3].reshard = {Reshard::True, 0};
    p.units[3].ac = Checkpointing::Full;
    p.units[4].mp.paramDtype = DType::F64;
    TrainingConfig& t = p.training;
    t.microBatch = 3;
    t.seqLen = 777;
    t.gradAccum = 5;
    t.steps = 123456;
    t.seed = (1ull << 53) - 1;
    t.gradClip = 0.0;
    t.optimizer = {3.0000000000000004e-4, 0.85, 0.999, 1e-12, 0.0, 250, "cosine", 0.03, {"1d", "embeddings"}};
    t.data = {DataConfig::Tokens, "/data/owt/train \"\u4e2d\".bin", DataConfig::TokenDtype::U32};
    t.eval = {250, 12, "/data/owt/val \"\u4e2d\".bin", DataConfig::TokenDtype::U16, 0};
    t.checkpoint = {"/ckpt/run 1", 100, 7, false};
    return p;
}

} // namespace

class TestPlanRoundTrip : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void presets_data()
    {
        QTest::addColumn<QString>("preset");
        for (const PresetInfo& p : modelPresets()) QTest::newRow(p.name.c_str()) << q(p.name);
    }
    void presets()
    {
        QFETCH(QString, preset);
        roundTrip(defaultPlan(*presetConfig(preset.toStdString())));
    }

    void everyFieldAwayFromItsDefault()
    {
        const Plan p = everythingSet();
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        roundTrip(p);
        // Each of these differs from a default plan, so the comparison above had teeth.
        const Plan d = defaultPlan(*presetConfig("llama3-8b"));
        QVERIFY(!(p.units[1] == d.units[1]));
        QVERIFY(p.training.optimizer.lr != d.training.optimizer.lr);
    }

    // A preset's own value set back to the default is written, so that
    // reading does not restore the preset's (Qwen3's head_dim 128, eps 1e-6).
    // A held-out fraction in place of a file; an absent "eval" is no validation loss.
    void heldOutFraction()
    {
        Plan p = everythingSet();
        p.training.eval = {0, 3, "", DataConfig::TokenDtype::Auto, 0.0125};
        QVERIFY(validateLoaded(PlanReadResult{p, {}}).ok());
        roundTrip(p);
        p.training.eval = {};
        roundTrip(p);
        QVERIFY(!planToJson(p).find("training")->find("eval"));
        // "eval": {} turns it on with 8 batches, after the last step only.
        const PlanReadResult on = planFromString(R"({"format": "shardbench-plan", "version": 1, "model": {"preset": "transformer"},
            "training": {"eval": {}}})");
        QCOMPARE(on.plan.training.eval.batches, 8);
        QCOMPARE(on.plan.training.eval.every, 0);
        QVERIFY(on.plan.training.eval.dueAfter(20, 20) && !on.plan.training.eval.dueAfter(10, 20));
    }

    void presetValuesResetToDefaults()
    {
        ModelConfig m = *presetConfig("qwen3-0.6b");
        m.explicitHeadDim = 0;
        m.normEps = ModelConfig().normEps;
        m.ropeTheta = ModelConfig().ropeTheta;
        roundTrip(defaultPlan(m));
        const PlanReadResult back = planFromString(planToString(defaultPlan(m)));
        QCOMPARE(back.plan.model.explicitHeadDim, std::int64_t(0));
        QCOMPARE(back.plan.model.headDim(), std::int64_t(64));
        QCOMPARE(back.plan.model.ropeTheta, ModelConfig().ropeTheta);
    }

    void reshardSpellings()
    {
        Plan p = defaultPlan(*presetConfig("transformer"));
        p.mesh.procsPerNode = 8;
        const Reshard kinds[] = {{Reshard::Default, 0}, {Reshard::True, 0}, {Reshard::False, 0}, {Reshard::Group, 2}, {Reshard::Group, 8}};
        for (std::size_t i = 0; i < std::size(kinds); ++i) p.units[i].reshard = kinds[i];
        roundTrip(p);
        const json::Value j = planToJson(p);
        const json::Array& units = j.find("units")->asArray();
        QCOMPARE(q(units[0].find("reshard_after_forward")->dump()), QStringLiteral("\"default\""));
        QCOMPARE(q(units[1].find("reshard_after_forward")->dump()), QStringLiteral("true"));
        QCOMPARE(q(units[2].find("reshard_after_forward")->dump()), QStringLiteral("false"));
        QCOMPARE(q(units[3].find("reshard_after_forward")->dump()), QStringLiteral("2"));
    }

    void importedTree()
    {
        const std::string text = sbtest::readText(sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json"));
        const json::ParseResult tree = json::parse(text);
        QVERIFY(tree);
        ModelConfig m;
        m.preset = "imported";
        m.arch = Arch::Imported;
        m.importedTree = *tree.value;
        m.importedFrom = "tinymodels.SmallLM (examples/module_tree_small.json)";
        Plan p = defaultPlan(m);
        QCOMPARE(static_cast<int>(p.units.size()), 3); // root + layers.0 + layers.1
        p.units[1].ac = Checkpointing::Full;
        p.units[2].mp.paramDtype = DType::BF16;
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        roundTrip(p);
        // The tree inside the plan is the exported one, byte for byte in meaning.
        const PlanReadResult back = planFromString(planToString(p));
        QVERIFY(*back.plan.model.importedTree.find("modules") == *tree.value->find("modules"));
        QCOMPARE(q(back.plan.model.importedTree.find("model_class")->asString()), QStringLiteral("tinymodels.SmallLM"));
        const LoadedPlan again = validateLoaded(PlanReadResult{back.plan, {}});
        QVERIFY(again.ok());
        QCOMPARE(again.tree->totalParams(), lp.tree->totalParams());
        QCOMPARE(again.tree->modules().size(), lp.tree->modules().size());
    }

    void presetTreeAsImported()
    {
        // A preset's tree exported as JSON and re-imported plans and estimates the same model states.
        const LoadedPlan preset = sbtest::presetPlan("gpt2-124m");
        ModelConfig m;
        m.preset = "imported";
        m.arch = Arch::Imported;
        m.importedTree = preset.tree->toJson();
        Plan p = preset.plan;
        p.model = m;
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        roundTrip(lp.plan);
        const Estimate a = estimateMemory(preset.plan, *preset.tree);
        const Estimate b = estimateMemory(lp.plan, *lp.tree);
        QCOMPARE(b.paramsTotal, a.paramsTotal);
        for (std::size_t r = 0; r < a.ranks.size(); ++r)
            QCOMPARE(sbtest::modelState(b.ranks[r].atPeak), sbtest::modelState(a.ranks[r].atPeak));
    }

    void fileRoute()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        const Plan p = everythingSet();
        const Status saved = savePlanFile(p, path);
        QVERIFY2(saved.ok(), saved.message().c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("plan.json")}); // no temporary left
        const PlanReadResult r = loadPlanFile(path);
        QVERIFY(r.problems.empty());
        comparePlans(p, r.plan);
        QCOMPARE(sbtest::readBytes(q(path)), QByteArray::fromStdString(planToString(p)));
        QVERIFY(!savePlanFile(p, "/nonexistent-dir/plan.json").ok());
    }

    // Two windows (or two runs) saving one plan at the same moment: every save
    // succeeds, the file is always one whole plan, and no temporary file is
    // left. With one shared "plan.json.tmp" the writers truncated each other's
    // bytes and renamed each other's file away ("cannot replace").
    void concurrentSavesNeverMix()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        std::vector<std::string> texts;
        std::vector<Plan> plans;
        for (int w = 0; w < 4; ++w) {
            Plan p = everythingSet();
            p.name = "writer " + std::to_string(w) + std::string(static_cast<std::size_t>(w) * 5000, 'x');
            plans.push_back(p);
            texts.push_back(planToString(p));
        }
        std::atomic<int> failures{0};
        std::string firstFailure;
        std::mutex lock;
        std::vector<std::thread> writers;
        for (int w = 0; w < 4; ++w)
            writers.emplace_back([&, w] {
                for (int i = 0; i < 40; ++i)
                    if (const Status s = savePlanFile(plans[static_cast<std::size_t>(w)], path); !s.ok()) {
                        std::lock_guard<std::mutex> g(lock);
                        if (failures++ == 0) firstFailure = s.message();
                    }
            });
        for (std::thread& t : writers) t.join();
        QVERIFY2(failures == 0, firstFailure.c_str());
        const QByteArray bytes = sbtest::readBytes(q(path));
        QVERIFY(std::find(texts.begin(), texts.end(), bytes.toStdString()) != texts.end());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("plan.json")});
    }

    void defaultsFillMissingFields()
    {
        const PlanReadResult r = planFromString(R"({"format": "shardbench-plan", "version": 1, "model": {"preset": "gpt2-124m"}})");
        QVERIFY2(r.ok(), qPrintable(sbtest::problemsText(r.problems)));
        compareModels(r.plan.model, *presetConfig("gpt2-124m"));
        QCOMPARE(static_cast<int>(r.plan.units.size()), 1); // the root is always there
        QVERIFY(r.plan.units[0].module.empty());
    }
};

QTEST_APPLESS_MAIN(TestPlanRoundTrip)
#include "tst_plan_roundtrip.moc"
