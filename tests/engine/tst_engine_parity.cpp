// Numerical parity of sharded training against the independent unsharded
// reference (shardbench-core --reference: full tensors, plain autograd, the
// global norm with clip_grad_norm_'s expressions, the fused AdamW that
// tst_engine_fused_adamw holds to LibTorch's AdamW), 20 steps of a small
// Transformer on real Gloo ranks. Real PyTorch on the same plan:
// tst_engine_export_script.
// Tolerances: fp32 losses 1e-5 relative, final parameters 1e-5 absolute.
#include "engine_support.hpp"

#include <QJsonArray>
#include <QTest>

#include <utility>

namespace {

// The same plan run twice: the shard group's collectives through shared
// memory (the default on one host), then through Gloo (SB_SHM=0).
std::pair<RunResult, RunResult> runShmAndGloo(int world, const QString& planPath)
{
    QProcessEnvironment gloo;
    gloo.insert(QStringLiteral("SB_SHM"), QStringLiteral("0"));
    return {LocalRunner::run(world, {QStringLiteral("--plan"), planPath}),
            LocalRunner::run(world, {QStringLiteral("--plan"), planPath}, 120000, gloo)};
}

} // namespace

class EngineParity : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::vector<double> refLosses_;
    Tensors refParams_;

    void compareToReference(const sb::Plan& plan, int world, const QString& name, double lossTol, double paramTol)
    {
        const QString planPath = writePlan(dir_, name + QStringLiteral(".json"), plan);
        const QString out = dir_.filePath(name + QStringLiteral(".safetensors"));
        const RunResult run = LocalRunner::run(world, {QStringLiteral("--plan"), planPath, QStringLiteral("--export-final"), out});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const std::vector<double> got = losses(run.ranks[0]);
        QCOMPARE(got.size(), refLosses_.size());
        // Every rank reports the same (all-reduced) loss.
        for (const RankResult& r : run.ranks) QCOMPARE(losses(r), got);
        const double lossDiff = maxRelativeDifference(got, refLosses_);
        qInfo("%s: max relative loss difference %.3g over %zu steps", qPrintable(name), lossDiff, got.size());
        QVERIFY2(lossDiff <= lossTol, qPrintable(QStringLiteral("loss differs by %1").arg(lossDiff)));
        const Tensors params = readSafetensors(out);
        QVERIFY2(params.error.isEmpty(), qPrintable(params.error));
        QString where;
        const double paramDiff = maxAbsoluteDifference(params, refParams_, &where);
        qInfo("%s: max absolute parameter difference %.3g (%s)", qPrintable(name), paramDiff, qPrintable(where));
        QVERIFY2(paramDiff <= paramTol, qPrintable(QStringLiteral("parameter %1 differs by %2").arg(where).arg(paramDiff)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // Global batch 8: the reference runs it in one process.
        const QString planPath = writePlan(dir_, QStringLiteral("ref.json"), tinyPlan(1, 8));
        const QString out = dir_.filePath(QStringLiteral("ref.safetensors"));
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), planPath, QStringLiteral("--reference"),
                                                   QStringLiteral("--export-final"), out});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        refLosses_ = losses(run.ranks[0]);
        QCOMPARE(refLosses_.size(), std::size_t(20));
        QVERIFY2(refLosses_.back() < refLosses_.front() - 0.5, "the reference must learn");
        refParams_ = readSafetensors(out);
        QVERIFY2(refParams_.error.isEmpty(), qPrintable(refParams_.error));
    }

    void shardedMatchesReference_data()
    {
        QTest::addColumn<int>("world");
        QTest::addColumn<bool>("reshard");
        QTest::newRow("W=1") << 1 << true;
        QTest::newRow("W=2") << 2 << true;
        QTest::newRow("W=4") << 4 << true;
        QTest::newRow("W=2 reshard_after_forward=false") << 2 << false;
        QTest::newRow("W=4 reshard_after_forward=false") << 4 << false;
    }

    void shardedMatchesReference()
    {
        QFETCH(int, world);
        QFETCH(bool, reshard);
        sb::Plan plan = tinyPlan(world, 8 / world);
        for (sb::UnitPolicy& u : plan.units)
            if (!u.module.empty()) u.reshard = {reshard ? sb::Reshard::True : sb::Reshard::False, 0};
        compareToReference(plan, world, QStringLiteral("w%1r%2").arg(world).arg(reshard), 1e-5, 1e-5);
    }

    void sharedMemoryMatchesGloo_data()
    {
        QTest::addColumn<int>("world");
        QTest::addColumn<bool>("bf16");
        QTest::addColumn<int>("accum");
        QTest::newRow("W=2 fp32") << 2 << false << 1;
        // bf16 gradients go into the slots as they are, and the reader widens them.
        QTest::newRow("W=4 bf16") << 4 << true << 1;
        // Micro-batches accumulated in fp32 go in as fp32.
        QTest::newRow("W=2 bf16, 2 micro-batches") << 2 << true << 2;
    }

    void sharedMemoryMatchesGloo()
    {
        // Ranks on one host exchange through shared memory; SB_SHM=0 keeps
        // Gloo. The same sums in the same order: the same losses, bit for bit.
        QFETCH(int, world);
        QFETCH(bool, bf16);
        QFETCH(int, accum);
        sb::Plan plan = tinyPlan(world, 8 / world, 6);
        plan.training.gradAccum = accum;
        if (bf16)
            for (sb::UnitPolicy& u : plan.units) {
                u.mp.paramDtype = sb::DType::BF16; // bf16 slots for the all-gather
                u.mp.reduceDtype = sb::DType::F32;
            }
        const QString planPath = writePlan(dir_, QStringLiteral("shm%1%2%3.json").arg(world).arg(bf16).arg(accum), plan);
        const auto [viaShm, viaGloo] = runShmAndGloo(world, planPath);
        QVERIFY2(viaShm.ok(), qPrintable(viaShm.describe()));
        QVERIFY2(viaGloo.ok(), qPrintable(viaGloo.describe()));
        for (int r = 0; r < world; ++r) {
            const auto& rank = viaShm.ranks[static_cast<std::size_t>(r)];
            QCOMPARE(rank.ofType(QStringLiteral("plan")).at(0).value(QStringLiteral("collectives")).toString(), QStringLiteral("shm"));
            QVERIFY2(rank.stdErr.contains(QStringLiteral("collectives through shared memory")), qPrintable(rank.stdErr.left(600)));
            QCOMPARE(viaGloo.ranks[static_cast<std::size_t>(r)].ofType(QStringLiteral("plan")).at(0).value(QStringLiteral("collectives")).toString(),
                     QStringLiteral("gloo"));
        }
        QCOMPARE(losses(viaShm.ranks[0]).size(), std::size_t(6));
        QCOMPARE(losses(viaShm.ranks[0]), losses(viaGloo.ranks[0]));
        // The slots are counted as the buffers they stand in for: the same peak.
        const auto peak = [](const RankResult& r) { return r.ofType(QStringLiteral("step")).back().value(QStringLiteral("mem_peak")).toDouble(); };
        QVERIFY2(peak(viaShm.ranks[0]) <= peak(viaGloo.ranks[0]), "the shared-memory path holds more than Gloo's");
        QVERIFY2(peak(viaShm.ranks[0]) > 0.5 * peak(viaGloo.ranks[0]), "the slots are not counted");
    }

    void channelsOutlastADeepModel_data()
    {
        QTest::addColumn<bool>("keepGathered");
        QTest::newRow("reshard after forward (the root holds one channel)") << false;
        QTest::newRow("every unit kept gathered (more units than channels)") << true;
    }

    void channelsOutlastADeepModel()
    {
        // Root + 7 blocks at W=2. Resharding after forward, the root keeps its
        // channel through forward and backward and the blocks take turns on
        // the other five: every collective stays in shared memory. Kept
        // gathered, the seventh unit finds every channel held and goes
        // through Gloo (said once); the mix gives Gloo's losses bit for bit.
        QFETCH(bool, keepGathered);
        sb::Plan plan = tinyPlan(2, 4, 4, 7);
        if (keepGathered)
            for (sb::UnitPolicy& u : plan.units) u.reshard = {sb::Reshard::False, 0};
        const QString planPath = writePlan(dir_, QStringLiteral("deep%1.json").arg(keepGathered), plan);
        const auto [viaShm, viaGloo] = runShmAndGloo(2, planPath);
        QVERIFY2(viaShm.ok(), qPrintable(viaShm.describe()));
        QVERIFY2(viaGloo.ok(), qPrintable(viaGloo.describe()));
        for (const RankResult& rank : viaShm.ranks) {
            const bool fellBack = rank.stdErr.contains(QStringLiteral("goes through Gloo"));
            QVERIFY2(fellBack == keepGathered, qPrintable(rank.stdErr.left(800)));
            if (keepGathered)
                QVERIFY2(rank.stdErr.count(QStringLiteral("all-gather goes through Gloo")) == 1, "said more than once");
        }
        QCOMPARE(losses(viaShm.ranks[0]).size(), std::size_t(4));
        QCOMPARE(losses(viaShm.ranks[0]), losses(viaGloo.ranks[0]));
    }

    void reshardToAGroupMatches_data()
    {
        QTest::addColumn<bool>("checkpointing");
        QTest::newRow("k=2 of 4") << false;
        QTest::newRow("k=2 of 4, activation checkpointing") << true;
    }

    void reshardToAGroupMatches()
    {
        // reshard_after_forward = 2 at W=4: backward gathers from the post-forward
        // shards within pairs of ranks; with checkpointing the recompute does too.
        QFETCH(bool, checkpointing);
        sb::Plan plan = tinyPlan(4, 2);
        for (sb::UnitPolicy& u : plan.units) {
            if (u.module.empty()) continue;
            u.reshard = {sb::Reshard::Group, 2};
            if (checkpointing) u.ac = sb::Checkpointing::Full;
        }
        compareToReference(plan, 4, QStringLiteral("k2ac%1").arg(checkpointing), 1e-5, 1e-5);
    }

    void gradientAccumulationMatchesLargerBatch()
    {
        // 2 ranks x 2 micro-batches of 2 = the reference's batch of 8.
        sb::Plan plan = tinyPlan(2, 2);
        plan.training.gradAccum = 2;
        compareToReference(plan, 2, QStringLiteral("accum"), 1e-5, 1e-5);
    }

    void activationCheckpointingMatches()
    {
        sb::Plan plan = tinyPlan(2, 4);
        for (sb::UnitPolicy& u : plan.units)
            if (!u.module.empty()) u.ac = sb::Checkpointing::Full;
        compareToReference(plan, 2, QStringLiteral("ac"), 1e-5, 1e-5);
    }

    void nestedUnitsAndExplicitPrefetchMatch()
    {
        sb::Plan plan = tinyPlan(2, 4);
        for (const char* m : {"layers.0.attention", "layers.1.feed_forward", "tok_embeddings"}) {
            sb::UnitPolicy u;
            u.module = m;
            plan.units.push_back(u);
        }
        plan.findUnit("layers.0")->forwardPrefetch = {"layers.1"};
        plan.findUnit("layers.1")->backwardPrefetch = {"layers.0"};
        compareToReference(plan, 2, QStringLiteral("nested"), 1e-5, 1e-5);
    }

    void hsdpMatches()
    {
        // 2 replicas x 2-way sharding: reduce-scatter in the shard group, all-reduce across replicas.
        sb::Plan plan = tinyPlan(4, 2);
        plan.mesh.replicate = 2;
        compareToReference(plan, 4, QStringLiteral("hsdp"), 1e-5, 1e-5);
    }

    void bf16StaysCloseToFp32()
    {
        // bf16 compute (8-bit mantissa), fp32 reduction: losses within 2% of fp32.
        sb::Plan plan = tinyPlan(2, 4);
        for (sb::UnitPolicy& u : plan.units) {
            u.mp.paramDtype = sb::DType::BF16;
            u.mp.reduceDtype = sb::DType::F32;
        }
        const QString planPath = writePlan(dir_, QStringLiteral("bf16.json"), plan);
        const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), planPath});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const double diff = maxRelativeDifference(losses(run.ranks[0]), refLosses_);
        qInfo("bf16: max relative loss difference to fp32 %.3g", diff);
        QVERIFY2(diff < 0.02, qPrintable(QStringLiteral("bf16 loss differs by %1").arg(diff)));
        QVERIFY(diff > 0); // it really ran in bf16
    }

    void llamaShardedMatchesReference()
    {
        sb::ModelConfig m = *sb::presetConfig("llama3-8b");
        m.vocabSize = 130;
        m.dim = 64;
        m.nLayers = 2;
        m.nHeads = 4;
        m.nKvHeads = 2;
        m.ffnHidden = 96;
        m.maxSeqLen = 64;
        sb::Plan plan = sb::defaultPlan(m);
        plan.mesh = sb::Mesh{};
        plan.training.seqLen = 30;
        plan.training.steps = 10;
        plan.training.optimizer.lr = 2e-3;
        plan.mesh.procsPerNode = 1;
        plan.training.microBatch = 8;
        const QString refPath = writePlan(dir_, QStringLiteral("llama-ref.json"), plan);
        const RunResult ref = LocalRunner::run(1, {QStringLiteral("--plan"), refPath, QStringLiteral("--reference")});
        QVERIFY2(ref.ok(), qPrintable(ref.describe()));
        plan.mesh.procsPerNode = 2;
        plan.training.microBatch = 4;
        const QString path = writePlan(dir_, QStringLiteral("llama.json"), plan);
        const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), path});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const double diff = maxRelativeDifference(losses(run.ranks[0]), losses(ref.ranks[0]));
        qInfo("llama: max relative loss difference %.3g", diff);
        QVERIFY(diff <= 1e-5);
    }

    void cpuOffloadKeepsTheNumbers()
    {
        // FSDP2's CPUOffloadPolicy moves state off a GPU; on a CPU plan it is a
        // no-op (with the plan's warning). SB_OFFLOAD_ON_CPU=1 runs the offload
        // bookkeeping anyway (host shards, device copies for the all-gather, the
        // reduced gradient back to the host, clipping and AdamW over host
        // state, the full export): the same numbers, and the plan event names
        // the offloaded units.
        sb::Plan plan = tinyPlan(2, 4, 6);
        for (sb::UnitPolicy& u : plan.units)
            if (!u.module.empty()) u.offload = true;
        const QString path = writePlan(dir_, QStringLiteral("offload.json"), plan);
        QProcessEnvironment on;
        on.insert(QStringLiteral("SB_OFFLOAD_ON_CPU"), QStringLiteral("1"));
        std::vector<std::vector<double>> runs;
        for (bool offload : {false, true}) {
            const QString out = dir_.filePath(QStringLiteral("offload-%1.safetensors").arg(offload));
            const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), path, QStringLiteral("--export-final"), out}, 120000,
                                                   offload ? on : QProcessEnvironment());
            QVERIFY2(run.ok(), qPrintable(run.describe()));
            runs.push_back(losses(run.ranks[0]));
            int offloaded = 0;
            for (const QJsonValue& u : run.ranks[0].ofType(QStringLiteral("plan")).front().value(QStringLiteral("units")).toArray())
                offloaded += u.toObject().value(QStringLiteral("offloaded")).toBool();
            QCOMPARE(offloaded, offload ? static_cast<int>(plan.units.size()) - 1 : 0);
        }
        QVERIFY(maxRelativeDifference(runs[1], runs[0]) < 1e-12);
        const Tensors a = readSafetensors(dir_.filePath(QStringLiteral("offload-0.safetensors")));
        const Tensors b = readSafetensors(dir_.filePath(QStringLiteral("offload-1.safetensors")));
        QVERIFY(a.error.isEmpty() && b.error.isEmpty());
        QCOMPARE(maxAbsoluteDifference(a, b), 0.0);
    }

    void bf16MatchesBf16Reference_data()
    {
        // Tolerances on the loss: at W=1 the reference runs the same shapes, and
        // only where gradients are summed could differ (FSDP2 sums micro-batches in
        // the fp32 reduce dtype); at W=2 bf16 matrix products of other shapes
        // round differently (about 3e-5 seen).
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("accum");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("W=1, 4 micro-batches") << 1 << 4 << 1e-6;
        QTest::newRow("W=2, 2 micro-batches") << 2 << 2 << 1e-4;
    }

    void bf16MatchesBf16Reference()
    {
        // bf16 compute with fp32 reduction: --reference computes in the plan's
        // param_dtype too (casts of fp32 masters), so the sharded run is
        // compared with the same mixed precision unsharded.
        QFETCH(int, world);
        QFETCH(int, accum);
        QFETCH(double, tolerance);
        sb::Plan plan = tinyPlan(world, 4 / world, 6);
        plan.training.gradAccum = accum;
        for (sb::UnitPolicy& u : plan.units) {
            u.mp.paramDtype = sb::DType::BF16;
            u.mp.reduceDtype = sb::DType::F32;
        }
        const QString path = writePlan(dir_, QStringLiteral("bf16-%1.json").arg(world), plan);
        const RunResult ref = LocalRunner::run(1, {QStringLiteral("--plan"), path, QStringLiteral("--reference")});
        QVERIFY2(ref.ok(), qPrintable(ref.describe()));
        const RunResult run = LocalRunner::run(world, {QStringLiteral("--plan"), path});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const double diff = maxRelativeDifference(losses(run.ranks[0]), losses(ref.ranks[0]));
        qInfo("bf16 W=%d: max relative loss difference %.3g", world, diff);
        QVERIFY2(diff <= tolerance, qPrintable(QString::number(diff)));
        // The reference really computed in bf16: its fp32 twin differs.
        for (sb::UnitPolicy& u : plan.units) u.mp.paramDtype = sb::DType::F32;
        const QString fp32Path = writePlan(dir_, QStringLiteral("fp32-%1.json").arg(world), plan);
        const RunResult fp32 = LocalRunner::run(1, {QStringLiteral("--plan"), fp32Path, QStringLiteral("--reference")});
        QVERIFY2(fp32.ok(), qPrintable(fp32.describe()));
        const double fromFp32 = maxRelativeDifference(losses(fp32.ranks[0]), losses(ref.ranks[0]));
        qInfo("bf16 reference against fp32: %.3g", fromFp32);
        QVERIFY(fromFp32 > 1e-5);
    }
};

QTEST_GUILESS_MAIN(EngineParity)
#include "tst_engine_parity.moc"
