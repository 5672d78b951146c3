// Memory measured by the core's tracking allocator (exact ATen bytes on CPU)
// against expectations and against the estimator for the same plan.
#include "engine_support.hpp"

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"

#include <QTest>

namespace {

// The bench's sizes (vocab 1024, dim 256, 4 heads) in the tutorial
// Transformer or, given a preset, in that preset's family (2 key/value heads;
// Qwen3 with its own head_dim).
sb::Plan benchLike(int world, int microBatch, const char* preset = "transformer")
{
    sb::ModelConfig m = *sb::presetConfig(preset);
    m.vocabSize = 1024;
    m.dim = 256;
    m.nHeads = 4;
    m.nKvHeads = sb::llamaForm(m.arch) ? 2 : 4;
    m.ffnHidden = sb::llamaForm(m.arch) ? 704 : 1024;
    if (m.explicitHeadDim > 0) m.explicitHeadDim = 96;
    m.nLayers = 4;
    m.maxSeqLen = 64;
    sb::Plan p = sb::defaultPlan(m);
    p.mesh = sb::Mesh{}; // the CPU, whatever the preset's default
    p.mesh.device = sb::Device::Cpu;
    p.mesh.procsPerNode = world;
    p.training.microBatch = microBatch;
    p.training.seqLen = 64;
    p.training.steps = 3;
    return p;
}

qint64 field(const RankResult& r, int step, const char* name)
{
    for (const QJsonObject& e : r.ofType(QStringLiteral("step")))
        if (e.value(QStringLiteral("step")).toInt() == step) return e.value(QLatin1String(name)).toInteger();
    return -1;
}

} // namespace

class EngineMemory : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    RunResult run(const sb::Plan& plan, const QString& name, bool reference = false)
    {
        QStringList args{QStringLiteral("--plan"), writePlan(dir_, name, plan)};
        if (reference) args << QStringLiteral("--reference");
        return LocalRunner::run(reference ? 1 : plan.mesh.worldSize(), args);
    }

private Q_SLOTS:
    void shardedPeakIsBelowUnsharded()
    {
        // Same micro-batch per rank: 2 sharded ranks against one unsharded process.
        const RunResult sharded = run(benchLike(2, 4), QStringLiteral("s.json"));
        QVERIFY2(sharded.ok(), qPrintable(sharded.describe()));
        const RunResult full = run(benchLike(1, 4), QStringLiteral("u.json"), true);
        QVERIFY2(full.ok(), qPrintable(full.describe()));
        const qint64 unshardedPeak = field(full.ranks[0], 3, "mem_peak");
        for (const RankResult& r : sharded.ranks) {
            const qint64 peak = field(r, 3, "mem_peak");
            qInfo("peak per rank: sharded %lld, unsharded %lld (%.2fx)", peak, unshardedPeak, double(peak) / unshardedPeak);
            QVERIFY(peak > 0);
            QVERIFY(peak < unshardedPeak);
        }
    }

    void modelStateFallsAsOneOverW()
    {
        // After a step only model states remain: fp32 shards, fp32 grads, AdamW's two states.
        const sb::Plan base = benchLike(1, 2);
        auto tree = sb::buildModuleTree(base.model);
        const double P = static_cast<double>(tree->totalParams());
        for (int world : {1, 2, 4}) {
            const RunResult r = run(benchLike(world, 2), QStringLiteral("w%1.json").arg(world));
            QVERIFY2(r.ok(), qPrintable(r.describe()));
            const double current = static_cast<double>(field(r.ranks[0], 3, "mem_current"));
            const double ideal = 16.0 * P / world;
            qInfo("W=%d: model state after the step %.0f bytes, 16P/W = %.0f (ratio %.4f)", world, current, ideal, current / ideal);
            // Padding adds at most (W-1) rows per parameter; allow 1% plus 64 KiB of small tensors.
            QVERIFY(current >= ideal * 0.999);
            QVERIFY(current <= ideal * 1.01 + 65536);
        }
    }

    void estimateWithinFivePercent_data()
    {
        QTest::addColumn<QString>("variant");
        // vocab-16k: the loss's logits and their gradient are the peak.
        for (const char* v : {"blocks", "reshard-false", "checkpointing", "bf16", "accumulate-2", "world-4", "world-4-reshard-2",
                              "vocab-16k", "vocab-16k-bf16", "llama3-8b", "qwen2.5-7b", "qwen3-8b", "qwen3-8b-bf16"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }

    void estimateWithinFivePercent()
    {
        QFETCH(QString, variant);
        const bool family = variant.startsWith(QStringLiteral("llama")) || variant.startsWith(QStringLiteral("qwen"));
        const QByteArray preset = family ? variant.section(QLatin1Char('-'), 0, 1).toLatin1() : QByteArray("transformer");
        sb::Plan plan = benchLike(variant.startsWith(QStringLiteral("world-4")) ? 4 : 2, 4, preset.constData());
        for (sb::UnitPolicy& u : plan.units) {
            if (u.module.empty()) continue;
            if (variant == QStringLiteral("reshard-false")) u.reshard = {sb::Reshard::False, 0};
            if (variant == QStringLiteral("world-4-reshard-2")) u.reshard = {sb::Reshard::Group, 2};
            if (variant == QStringLiteral("checkpointing")) u.ac = sb::Checkpointing::Full;
        }
        if (variant.startsWith(QStringLiteral("vocab-16k"))) {
            plan.model.vocabSize = 16384;
            plan.training.microBatch = 8;
        }
        if (variant.endsWith(QStringLiteral("bf16")))
            for (sb::UnitPolicy& u : plan.units) {
                u.mp.paramDtype = sb::DType::BF16;
                u.mp.reduceDtype = sb::DType::F32;
            }
        if (variant == QStringLiteral("accumulate-2")) plan.training.gradAccum = 2;
        const RunResult r = run(plan, variant + QStringLiteral(".json"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        auto tree = sb::buildModuleTree(plan.model);
        const sb::Estimate e = sb::estimateMemory(plan, *tree);
        for (std::size_t rank = 0; rank < r.ranks.size(); ++rank) {
            const double measured = static_cast<double>(field(r.ranks[rank], 3, "mem_peak"));
            const double estimated = static_cast<double>(e.ranks[rank].peakBytes);
            qInfo("%s rank %zu: measured %.1f MiB, estimated %.1f MiB, ratio %.3f", qPrintable(variant), rank,
                  measured / 1048576.0, estimated / 1048576.0, estimated / measured);
            QVERIFY2(std::abs(estimated / measured - 1.0) <= 0.05,
                     qPrintable(QStringLiteral("estimate off by %1%").arg(100 * (estimated / measured - 1.0))));
        }
    }
};

QTEST_GUILESS_MAIN(EngineMemory)
#include "tst_engine_memory.moc"
