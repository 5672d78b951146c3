// Model presets: exact parameter counts against the published figures
// (data/presets/param_counts.tsv) and against closed-form formulas, module
// names as PyTorch prints them, default plans that validate.
#include "test_support.hpp"

#include "plan/model_config.hpp"
#include "plan/resolve.hpp"

#include <QtTest/QtTest>

using namespace sb;
using sbtest::q;

namespace {

// Independent closed forms of the architectures (tied weights once).
std::int64_t formulaParams(const ModelConfig& c)
{
    const std::int64_t V = c.vocabSize, D = c.dim, L = c.nLayers, F = c.ffnHidden, P = c.maxSeqLen;
    const std::int64_t hd = c.explicitHeadDim > 0 ? c.explicitHeadDim : c.dim / c.nHeads;
    const std::int64_t q = c.nHeads * hd, kv = c.nKvHeads * hd;
    const std::int64_t head = c.tiedEmbeddings ? 0 : V * D;
    switch (c.arch) {
    case Arch::Gpt2: // wte, wpe; per block ln_1, c_attn, c_proj, ln_2, c_fc, c_proj; ln_f
        return V * D + P * D + L * (2 * D + (3 * D * D + 3 * D) + (D * D + D) + 2 * D + (D * F + F) + (F * D + D)) + 2 * D + head;
    case Arch::Llama: // embeddings; per block 2 RMSNorms, q/k/v/o, SwiGLU w1/w2/w3; final norm; output
    case Arch::Mistral:
        return V * D + L * (2 * D + 2 * D * q + 2 * D * kv + 3 * D * F) + D + head;
    case Arch::Qwen2: // Llama's and the q/k/v biases
        return V * D + L * (2 * D + 2 * D * q + 2 * D * kv + 3 * D * F + q + 2 * kv) + D + head;
    case Arch::Qwen3: // Llama's and a norm weight of one head each for q and k
        return V * D + L * (2 * D + 2 * D * q + 2 * D * kv + 3 * D * F + 2 * hd) + D + head;
    case Arch::Tutorial: // tok + pos embeddings; per block 2 LayerNorms, 4 square projections, GELU MLP with bias
        return V * D + P * D + L * (4 * D + 4 * D * D + (D * F + F) + (F * D + D)) + 2 * D + head;
    case Arch::Imported: break;
    }
    return -1;
}

} // namespace

class TestPresets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parameterCounts_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<int>("tensors");
        for (const QStringList& r : sbtest::readTable(sbtest::dataPath(QStringLiteral("presets/param_counts.tsv"))))
            QTest::newRow(qPrintable(r[0])) << r[0] << r[1].toLongLong() << r[2].toInt();
    }
    void parameterCounts()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, params);
        QFETCH(int, tensors);
        const auto cfg = presetConfig(preset.toStdString());
        QVERIFY(cfg);
        const auto tree = buildModuleTree(*cfg);
        QCOMPARE(static_cast<qint64>(tree->totalParams()), params);
        QCOMPARE(static_cast<qint64>(formulaParams(*cfg)), params);
        int unique = 0;
        std::int64_t sum = 0;
        for (const Param& p : tree->params())
            if (p.tiedTo < 0) { ++unique; sum += p.numel(); }
        QCOMPARE(unique, tensors);
        QCOMPARE(static_cast<qint64>(sum), params);

        // The same count through the estimator, the resolver and an exported-then-imported tree.
        const LoadedPlan lp = validateLoaded(PlanReadResult{defaultPlan(*cfg), {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        const Estimate e = estimateMemory(lp.plan, *lp.tree);
        QCOMPARE(static_cast<qint64>(e.paramsTotal), params);
        QCOMPARE(static_cast<qint64>(e.paramsSharded), params);
        const ResolvedPlan r = resolvePlan(lp.plan, *lp.tree);
        std::int64_t owned = 0;
        for (const ResolvedUnit& u : r.units) owned += u.numel;
        QCOMPARE(static_cast<qint64>(owned), params);
        ModuleTree imported;
        Problems ps;
        QVERIFY(moduleTreeFromJson(tree->toJson(), JsonPath(), imported, ps));
        QCOMPARE(static_cast<qint64>(imported.totalParams()), params);
        QCOMPARE(imported.modules().size(), tree->modules().size());
    }

    void everyPresetIsListedAndPlansCleanly()
    {
        QCOMPARE(static_cast<int>(modelPresets().size()), static_cast<int>(sbtest::readTable(sbtest::dataPath(QStringLiteral("presets/param_counts.tsv"))).size()));
        for (const PresetInfo& info : modelPresets()) {
            const auto cfg = presetConfig(info.name);
            QVERIFY(cfg);
            QCOMPARE(q(cfg->preset), q(info.name));
            Problems sizes;
            cfg->validate(JsonPath().key("model"), sizes);
            QVERIFY2(sizes.empty(), qPrintable(sbtest::problemsText(sizes)));
            const LoadedPlan lp = validateLoaded(PlanReadResult{defaultPlan(*cfg), {}});
            QVERIFY2(lp.problems.empty(), qPrintable(q(info.name) + QStringLiteral(": ") + sbtest::problemsText(lp.problems)));
            QCOMPARE(static_cast<std::int64_t>(lp.plan.units.size()), cfg->nLayers + 1); // root + one unit per block
        }
        QVERIFY(!presetConfig("gpt5"));
    }

    void namesFollowPyTorch()
    {
        const auto gpt2 = buildModuleTree(*presetConfig("gpt2-124m"));
        for (const char* name : {"transformer.wte.weight", "transformer.wpe.weight", "transformer.h.11.attn.c_attn.weight",
                                 "transformer.h.0.mlp.c_proj.bias", "transformer.ln_f.bias", "lm_head.weight"})
            QVERIFY2(gpt2->findParam(name) >= 0, name);
        const Param& head = gpt2->param(gpt2->findParam("lm_head.weight"));
        QCOMPARE(head.tiedTo, gpt2->findParam("transformer.wte.weight"));
        // Conv1D keeps [in, out]: c_attn of GPT-2 small is 768 x 2304.
        const Param& cAttn = gpt2->param(gpt2->findParam("transformer.h.0.attn.c_attn.weight"));
        QCOMPARE(cAttn.shape, (std::vector<std::int64_t>{768, 2304}));

        const auto llama = buildModuleTree(*presetConfig("llama3-70b"));
        const Param& wk = llama->param(llama->findParam("layers.79.attention.wk.weight"));
        QCOMPARE(wk.shape, (std::vector<std::int64_t>{1024, 8192})); // 8 kv heads x 128
        QCOMPARE(llama->param(llama->findParam("output.weight")).tiedTo, -1);
        QCOMPARE(q(llama->module(llama->findModule("layers.3")).type), QStringLiteral("TransformerBlock"));
        QCOMPARE(static_cast<int>(llama->blocks().size()), 80);
        // Pre-order: a subtree is the contiguous range after its root.
        const int block = llama->findModule("layers.3");
        QVERIFY(llama->isInSubtree(llama->findModule("layers.3.feed_forward.w3"), block));
        QVERIFY(!llama->isInSubtree(llama->findModule("layers.4"), block));

        // Qwen3's head_dim (128) is not dim / heads (1024 / 16): q is 2048 wide.
        const auto qwen3 = buildModuleTree(*presetConfig("qwen3-0.6b"));
        QCOMPARE(qwen3->param(qwen3->findParam("layers.0.attention.wq.weight")).shape, (std::vector<std::int64_t>{2048, 1024}));
        QCOMPARE(qwen3->param(qwen3->findParam("layers.0.attention.wo.weight")).shape, (std::vector<std::int64_t>{1024, 2048}));
        QCOMPARE(qwen3->param(qwen3->findParam("layers.27.attention.k_norm.weight")).shape, (std::vector<std::int64_t>{128}));
        QCOMPARE(q(qwen3->module(qwen3->findModule("layers.0.attention.q_norm")).type), QStringLiteral("RMSNorm"));
        QVERIFY(qwen3->findParam("layers.0.attention.wq.bias") < 0);
        // Qwen2's biases on q, k and v only.
        const auto qwen2 = buildModuleTree(*presetConfig("qwen2.5-7b"));
        QCOMPARE(qwen2->param(qwen2->findParam("layers.0.attention.wk.bias")).shape, (std::vector<std::int64_t>{512}));
        QVERIFY(qwen2->findParam("layers.0.attention.wo.bias") < 0);
        QVERIFY(qwen2->findParam("layers.0.attention.q_norm.weight") < 0);
    }
};

QTEST_APPLESS_MAIN(TestPresets)
#include "tst_presets.moc"
