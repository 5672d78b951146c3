// The memory estimator: the ZeRO-3 figure per rank with its padding bound,
// exact per-rank shard arithmetic, the properties any sharding plan must
// have (more ranks, resharding, checkpointing, mixed precision, offload,
// integer reshard, HSDP) and the step timeline. The reports and golden
// estimates: tst_estimate_output.cpp.
#include "test_support.hpp"

#include "plan/size_bound.hpp"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace sb;
using sbtest::q;

#define LOAD(var, planExpr)                                                                                        \
    const LoadedPlan var = validateLoaded(PlanReadResult{(planExpr), {}});                                         \
    QVERIFY2(var.ok(), qPrintable(sbtest::problemsText(var.problems)))

namespace {

using u64 = std::uint64_t;

Plan presetOn(const std::string& preset, int nodes, int procs, int replicate = 1)
{
    Plan p = defaultPlan(*presetConfig(preset));
    p.mesh.nodes = nodes;
    p.mesh.procsPerNode = procs;
    p.mesh.replicate = replicate;
    return p;
}

// A small model on 8 CUDA ranks: bf16 and offload are meaningful there.
Plan smallCuda(const std::string& preset = "transformer")
{
    Plan p = presetOn(preset, 1, 8);
    p.mesh.device = Device::Cuda;
    p.mesh.deviceMemoryBytes = 80 * kGiB;
    return p;
}

Estimate estimate(const LoadedPlan& lp) { return estimateMemory(lp.plan, *lp.tree); }

// Real dim-0 rows held by shard rank s when `rows` are split in ceil(rows / n) chunks.
u64 realRows(u64 rows, u64 n, u64 s)
{
    const u64 chunk = (rows + n - 1) / n;
    const u64 start = std::min(rows, s * chunk);
    return std::min(chunk, rows - start);
}

void setAllBlocks(Plan& p, const std::function<void(UnitPolicy&)>& f)
{
    for (UnitPolicy& u : p.units)
        if (!u.module.empty()) f(u);
}

int pointIndex(const Estimate& e, const std::string& label)
{
    for (std::size_t i = 0; i < e.timeline.size(); ++i)
        if (e.timeline[i].label == label) return static_cast<int>(i);
    return -1;
}


} // namespace

class TestEstimate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void zero3Figure_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("procs");
        QTest::addColumn<int>("replicate");
        for (const QStringList& r : sbtest::readTable(sbtest::dataPath(QStringLiteral("estimate/zero3.tsv"))))
            QTest::addRow("%s %sx%s r%s", qPrintable(r[0]), qPrintable(r[1]), qPrintable(r[2]), qPrintable(r[3]))
                << r[0] << r[1].toInt() << r[2].toInt() << r[3].toInt();
    }
    void zero3Figure()
    {
        QFETCH(QString, preset);
        QFETCH(int, nodes);
        QFETCH(int, procs);
        QFETCH(int, replicate);
        LOAD(lp, presetOn(preset.toStdString(), nodes, procs, replicate));
        const Estimate e = estimate(lp);
        const u64 N = static_cast<u64>(lp.plan.mesh.shardSize());
        QCOMPARE(e.shardSize, static_cast<int>(N));
        QCOMPARE(static_cast<int>(e.ranks.size()), nodes * procs);
        const double P = static_cast<double>(e.paramsTotal);

        // Independent shard arithmetic from the tree.
        u64 paddedParams = 0, rowSum = 0;
        for (const Param& p : lp.tree->params()) {
            if (p.tiedTo >= 0) continue;
            paddedParams += 4 * ((static_cast<u64>(p.rows()) + N - 1) / N) * static_cast<u64>(p.rowNumel());
            rowSum += static_cast<u64>(p.rowNumel());
        }
        // Bounds stated in zero3.tsv: at most one padded row per tensor above the
        // figure; trailing ranks below it by fewer than N - 1 rows per tensor.
        // The figure's 16 bytes per parameter are all held at the optimizer
        // step; through the rest of the step the sharded gradients (4 of them)
        // come and go (FSDP2 frees them between steps), so 12 are persistent.
        const double above = 16.0 * static_cast<double>(rowSum);
        const double below = 12.0 * static_cast<double>(N - 1) * static_cast<double>(rowSum);
        const double zero3 = 12.0 * P / static_cast<double>(N);
        u64 stateOverShardRanks = 0;
        for (const RankEstimate& r : e.ranks) {
            const u64 s = static_cast<u64>(r.rank) % N;
            u64 moments = 0;
            for (const Param& p : lp.tree->params())
                if (p.tiedTo < 0) moments += 8 * realRows(static_cast<u64>(p.rows()), N, s) * static_cast<u64>(p.rowNumel());
            QCOMPARE(r.atPeak[MemCategory::ShardedParams], paddedParams);
            QVERIFY(r.atPeak[MemCategory::ShardedGrads] <= paddedParams); // the units reduced so far
            QCOMPARE(r.atPeak[MemCategory::OptimizerState], moments);
            const double state = static_cast<double>(sbtest::persistentState(r.atPeak));
            const double low = s == 0 ? zero3 : zero3 - below;
            QVERIFY2(state >= low && state < zero3 + above,
                     qPrintable(QStringLiteral("rank %1: %2 bytes vs 12P/N = %3, allowed [%4, %5)")
                                    .arg(r.rank).arg(state, 0, 'f', 0).arg(zero3, 0, 'f', 0).arg(low, 0, 'f', 0).arg(zero3 + above, 0, 'f', 0)));
            QVERIFY(sbtest::persistentState(r.atPeak) <= sbtest::persistentState(e.ranks[0].atPeak));
            if (static_cast<u64>(r.rank) < N) stateOverShardRanks += moments;
            QCOMPARE(r.hostBytes, u64(0));
        }
        // AdamW state is exact over one shard group: 8 bytes per parameter.
        QCOMPARE(stateOverShardRanks, static_cast<u64>(8 * e.paramsTotal));
        // At the optimizer step every unit's sharded gradients are held: the
        // worst rank's padded shards, 16P/N and its padding in all.
        const TimelinePoint& last = e.timeline.back();
        QCOMPARE(last.phase, StepPhase::Optimizer);
        QCOMPARE(last.memory[MemCategory::ShardedGrads], paddedParams);
        if (N == 1) QCOMPARE(sbtest::modelState(last.memory), static_cast<u64>(16 * e.paramsTotal));
    }

    void moreRanksNeverMoreModelState_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char* p : {"transformer", "gpt2-124m", "llama3-8b"}) QTest::newRow(p) << QString::fromLatin1(p);
    }
    void moreRanksNeverMoreModelState()
    {
        QFETCH(QString, preset);
        u64 previous = ~u64(0);
        const int worlds[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 32, 48, 64, 100, 128, 256, 512, 1000, 1024};
        for (int w : worlds) {
            LOAD(lp, presetOn(preset.toStdString(), 1, w));
            const Estimate e = estimate(lp);
            u64 worst = 0;
            for (const RankEstimate& r : e.ranks) worst = std::max(worst, sbtest::modelState(r.atPeak));
            QVERIFY2(worst <= previous, qPrintable(QStringLiteral("world %1: %2 > %3").arg(w).arg(worst).arg(previous)));
            previous = worst;
        }
    }

    void hsdpStateFollowsShardGroup()
    {
        LOAD(hsdp, presetOn("gpt2-124m", 4, 8, 4)); // 32 ranks, shard groups of 8
        LOAD(flat, presetOn("gpt2-124m", 1, 8));
        const Estimate a = estimate(hsdp);
        const Estimate b = estimate(flat);
        for (const RankEstimate& r : a.ranks)
            QCOMPARE(sbtest::modelState(r.atPeak), sbtest::modelState(b.ranks[static_cast<std::size_t>(r.rank % 8)].atPeak));
    }

    void reshardFalseNeverBelowTrue_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("world");
        QTest::newRow("transformer 2") << QStringLiteral("transformer") << 2;
        QTest::newRow("gpt2 8") << QStringLiteral("gpt2-124m") << 8;
        QTest::newRow("llama3-8b 16") << QStringLiteral("llama3-8b") << 16;
        QTest::newRow("llama3-70b 64") << QStringLiteral("llama3-70b") << 64;
    }
    void reshardFalseNeverBelowTrue()
    {
        QFETCH(QString, preset);
        QFETCH(int, world);
        Plan t = presetOn(preset.toStdString(), 1, world);
        Plan f = t;
        setAllBlocks(t, [](UnitPolicy& u) { u.reshard = {Reshard::True, 0}; });
        setAllBlocks(f, [](UnitPolicy& u) { u.reshard = {Reshard::False, 0}; });
        LOAD(lt, t);
        LOAD(lf, f);
        const Estimate et = estimate(lt), ef = estimate(lf);
        QVERIFY2(ef.peakBytes() >= et.peakBytes(), qPrintable(QStringLiteral("%1 < %2").arg(ef.peakBytes()).arg(et.peakBytes())));
        QVERIFY(sbtest::timelineMax(ef, MemCategory::UnshardedParams) > sbtest::timelineMax(et, MemCategory::UnshardedParams));
        // With false, every unit's gathered parameters are alive at the loss: the whole padded model.
        const int loss = pointIndex(ef, "loss");
        QVERIFY(loss >= 0);
        u64 padded = 0;
        const u64 N = static_cast<u64>(world);
        for (const Param& p : lf.tree->params())
            if (p.tiedTo < 0) padded += 4 * N * ((static_cast<u64>(p.rows()) + N - 1) / N) * static_cast<u64>(p.rowNumel());
        QCOMPARE(ef.timeline[static_cast<std::size_t>(loss)].memory[MemCategory::UnshardedParams], padded);
    }

    void integerReshardLiesBetween()
    {
        Plan base = smallCuda("gpt2-124m"); // 8 ranks
        auto peakWith = [&](Reshard r, MemCategory c) {
            Plan p = base;
            setAllBlocks(p, [&](UnitPolicy& u) { u.reshard = r; });
            const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
            const Estimate e = estimate(lp);
            return std::make_pair(e.peakBytes(), sbtest::timelineMax(e, c));
        };
        const auto t = peakWith({Reshard::True, 0}, MemCategory::UnshardedParams);
        const auto f = peakWith({Reshard::False, 0}, MemCategory::UnshardedParams);
        u64 previous = f.first;
        for (int k : {2, 4}) {
            const auto g = peakWith({Reshard::Group, k}, MemCategory::UnshardedParams);
            QVERIFY2(t.first <= g.first && g.first <= f.first, qPrintable(QStringLiteral("k=%1: %2 not in [%3, %4]").arg(k).arg(g.first).arg(t.first).arg(f.first)));
            QVERIFY(g.first <= previous); // a larger k keeps a smaller copy
            previous = g.first;
        }
        // FSDP2: k = 1 is false, k = the shard group size is true.
        QCOMPARE(peakWith({Reshard::Group, 1}, MemCategory::UnshardedParams), f);
        QCOMPARE(peakWith({Reshard::Group, 8}, MemCategory::UnshardedParams), t);
    }

    void activationCheckpointingLowersActivations_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("cuda");
        QTest::newRow("transformer cpu") << QStringLiteral("transformer") << false;
        QTest::newRow("transformer cuda") << QStringLiteral("transformer") << true;
        QTest::newRow("gpt2 cuda") << QStringLiteral("gpt2-124m") << true;
        QTest::newRow("llama3-8b cuda") << QStringLiteral("llama3-8b") << true;
    }
    void activationCheckpointingLowersActivations()
    {
        QFETCH(QString, preset);
        QFETCH(bool, cuda);
        Plan p = cuda ? smallCuda(preset.toStdString()) : presetOn(preset.toStdString(), 1, 2);
        p.training.microBatch = 4;
        Plan ac = p;
        setAllBlocks(ac, [](UnitPolicy& u) { u.ac = Checkpointing::Full; });
        LOAD(lp, p);
        LOAD(lac, ac);
        const Estimate e = estimate(lp), eac = estimate(lac);
        QVERIFY(sbtest::timelineMax(eac, MemCategory::Activations) < sbtest::timelineMax(e, MemCategory::Activations));
        QVERIFY(eac.peakBytes() <= e.peakBytes());
        // After forward a checkpointed block holds only its input: T x dim x 4 bytes.
        const std::string block = lp.tree->module(lp.tree->blocks()[0]).path;
        const int pre = pointIndex(eac, "pre-forward " + block), post = pointIndex(eac, "post-forward " + block);
        QVERIFY(pre >= 0 && post > pre);
        const u64 T = static_cast<u64>(p.training.microBatch) * static_cast<u64>(p.training.seqLen);
        QCOMPARE(eac.timeline[static_cast<std::size_t>(post)].memory[MemCategory::Activations] -
                     eac.timeline[static_cast<std::size_t>(pre)].memory[MemCategory::Activations],
                 T * static_cast<u64>(p.model.dim) * 4);
    }

    void checkpointedImportedBlockKeepsItsInput()
    {
        // The imported model is 64 wide (its embedding), whatever the config's preset sizes say.
        const json::ParseResult tree = json::parse(sbtest::readText(sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json")));
        QVERIFY(tree);
        ModelConfig m;
        m.preset = "imported";
        m.arch = Arch::Imported;
        m.importedTree = *tree.value;
        Plan p = defaultPlan(m);
        p.units[1].ac = Checkpointing::Full;
        LOAD(lp, p);
        const Estimate e = estimate(lp);
        const int pre = pointIndex(e, "pre-forward layers.0"), post = pointIndex(e, "post-forward layers.0");
        const u64 T = static_cast<u64>(p.training.microBatch) * static_cast<u64>(p.training.seqLen);
        QCOMPARE(e.timeline[static_cast<std::size_t>(post)].memory[MemCategory::Activations] -
                     e.timeline[static_cast<std::size_t>(pre)].memory[MemCategory::Activations],
                 T * 64 * 4);
    }

    void bf16LowersUnshardedParams()
    {
        Plan p = smallCuda("llama3-8b");
        Plan bf = p;
        for (UnitPolicy& u : bf.units) u.mp = {DType::BF16, DType::F32, std::nullopt, true};
        LOAD(lp, p);
        LOAD(lbf, bf);
        const Estimate e = estimate(lp), ebf = estimate(lbf);
        QCOMPARE(sbtest::timelineMax(ebf, MemCategory::UnshardedParams) * 2, sbtest::timelineMax(e, MemCategory::UnshardedParams));
        QVERIFY(ebf.peakBytes() < e.peakBytes());
        // Mixed precision leaves the sharded fp32 state alone.
        for (std::size_t r = 0; r < e.ranks.size(); ++r)
            QCOMPARE(sbtest::modelState(ebf.ranks[r].atPeak), sbtest::modelState(e.ranks[r].atPeak));
    }

    void modelDtypeSetsShardedState()
    {
        // Parameters created in bf16 stay bf16 when sharded: 2 + 2 + 4 bytes per parameter.
        Plan p = smallCuda("gpt2-124m");
        p.model.dtype = DType::BF16;
        LOAD(lp, p);
        LOAD(lf, smallCuda("gpt2-124m"));
        const Estimate e = estimate(lp), ef = estimate(lf);
        for (std::size_t r = 0; r < e.ranks.size(); ++r)
            QCOMPARE(sbtest::modelState(e.ranks[r].atPeak) * 2, sbtest::modelState(ef.ranks[r].atPeak));
    }

    void offloadMovesStateToHost()
    {
        Plan p = smallCuda("llama3-8b");
        Plan off = p;
        for (UnitPolicy& u : off.units) u.offload = true;
        LOAD(lp, p);
        LOAD(loff, off);
        const Estimate e = estimate(lp), eo = estimate(loff);
        // The host holds the parameters, AdamW's state and the gradients (half the
        // moments' bytes), all through the step.
        auto onHost = [](const RankEstimate& r) {
            return sbtest::persistentState(r.atPeak) + r.atPeak[MemCategory::OptimizerState] / 2;
        };
        const u64 allGrads = e.timeline.back().memory[MemCategory::ShardedGrads];
        for (std::size_t r = 0; r < e.ranks.size(); ++r) {
            QCOMPARE(sbtest::modelState(eo.ranks[r].atPeak), u64(0));
            QCOMPARE(eo.ranks[r].hostBytes, onHost(e.ranks[r]));
            // The device keeps only the step's transient memory, less the sharded gradients.
            const u64 rest = e.ranks[r].peakBytes - sbtest::persistentState(e.ranks[r].atPeak);
            QVERIFY(eo.ranks[r].peakBytes <= rest);
            QVERIFY(eo.ranks[r].peakBytes + allGrads >= rest);
        }
        // Offloading one unit moves only its share: its parameters and AdamW state
        // leave the device, and the host holds them with its gradients.
        Plan one = p;
        one.units[1].offload = true;
        LOAD(lone, one);
        const Estimate e1 = estimate(lone);
        QVERIFY(e1.ranks[0].hostBytes > 0);
        const u64 moved = sbtest::persistentState(e.ranks[0].atPeak) - sbtest::persistentState(e1.ranks[0].atPeak);
        const u64 movedMoments = e.ranks[0].atPeak[MemCategory::OptimizerState] - e1.ranks[0].atPeak[MemCategory::OptimizerState];
        QCOMPARE(e1.ranks[0].hostBytes, moved + movedMoments / 2);
    }

    void ignoredParamsAreReplicated()
    {
        Plan p = smallCuda("transformer");
        p.units[0].ignoredParams = {"pos_embeddings.weight"};
        LOAD(lp, p);
        LOAD(base, smallCuda("transformer"));
        const Estimate e = estimate(lp), eb = estimate(base);
        QCOMPARE(static_cast<qint64>(e.paramsSharded), static_cast<qint64>(e.paramsTotal - 64 * 256));
        // 64 x 256 rows over 8 ranks: 8 rows each before; the full table on every
        // rank after, whose gradient (autograd's own) is held all through the step.
        const u64 before = 12ull * 8 * 256, after = 12ull * 64 * 256;
        for (std::size_t r = 0; r < e.ranks.size(); ++r) {
            QCOMPARE(sbtest::persistentState(e.ranks[r].atPeak), sbtest::persistentState(eb.ranks[r].atPeak) - before + after);
            QVERIFY(e.ranks[r].atPeak[MemCategory::ShardedGrads] >= 4ull * 64 * 256);
        }
    }

    void trailingRanksMayHoldLess()
    {
        // Vocabulary rows 50257 over 7 ranks: ceil = 7180, the last rank holds 50257 - 6 * 7180 = 7177.
        LOAD(lp, presetOn("gpt2-124m", 1, 7));
        const Estimate e = estimate(lp);
        QVERIFY(e.ranks[6].atPeak[MemCategory::OptimizerState] < e.ranks[0].atPeak[MemCategory::OptimizerState]);
        QCOMPARE(e.ranks[6].atPeak[MemCategory::ShardedParams], e.ranks[0].atPeak[MemCategory::ShardedParams]); // padded alike
        QCOMPARE(e.worstRank, 0);
    }

    void reduceScatterBuffersGlooAndNccl()
    {
        // 4 CPU ranks on 4 hosts: Gloo. On one host the core reduces through
        // shared memory, summing the peers' slots straight into the sharded
        // gradients: no output buffer at all.
        Plan cpu = presetOn("transformer", 4, 1);
        Plan cuda = cpu;
        cuda.mesh.device = Device::Cuda;
        Plan oneHost = presetOn("transformer", 1, 4);
        LOAD(lc, cpu);
        LOAD(lg, cuda);
        LOAD(ls, oneHost);
        const Estimate ec = estimate(lc), eg = estimate(lg), es = estimate(ls);
        const std::string label = "post-backward layers.3";
        const int ic = pointIndex(ec, label), ig = pointIndex(eg, label);
        QVERIFY(ic >= 0 && ig == ic && pointIndex(es, label) == ic);
        // Block parameters in fp32, padded to 4 ranks (rows of every block tensor divide by 4).
        u64 block = 0;
        for (const Param& p : lc.tree->params())
            if (p.path.rfind("layers.3.", 0) == 0) block += 4 * static_cast<u64>(p.numel());
        auto comm = [](const Estimate& e, int i) {
            return static_cast<qint64>(e.timeline[static_cast<std::size_t>(i)].memory[MemCategory::CommBuffers]);
        };
        const qint64 b = static_cast<qint64>(block);
        const int before = pointIndex(ec, "backward layers.3");
        const int after = pointIndex(ec, "pre-backward layers.2");
        QVERIFY(before >= 0 && after > ic);
        // Post-backward: the previous unit's reduce-scatter (layers.4, in flight
        // until now) completes and frees its input and output; this unit's
        // gradients are copied into a full-size input (fp32 here). Gloo's
        // all-to-all output is full size, NCCL's reduce-scatter output one shard.
        QCOMPARE(comm(ec, ic) - comm(ec, before), b - (b + b));
        QCOMPARE(comm(eg, ig) - comm(eg, before), b - (b + b / 4));
        // The output is allocated after the copy and stays in flight into the next unit's backward.
        QCOMPARE(comm(ec, after) - comm(ec, ic), b);
        QCOMPARE(comm(eg, after) - comm(eg, ig), b / 4);
        QCOMPARE(comm(es, ic) - comm(es, before), b - b);
        QCOMPARE(comm(es, after) - comm(es, ic), 0);
    }

    // Measured on an H100 with PyTorch 2.11 (docs/performance-h100.md):
    // the cuBLAS workspaces (64 MiB) from the first product on, and the
    // logits at the loss as fp32 logits and fp32 log-softmax, whatever the
    // root's dtype (a bf16 root's output is cast at once and not kept). The
    // CPU's fused loss keeps less.
    void cudaWorkspaceAndLogits()
    {
        Plan cpu = presetOn("transformer", 1, 1);
        Plan cuda = cpu;
        cuda.mesh.device = Device::Cuda;
        Plan cudaBf16 = cuda;
        for (UnitPolicy& u : cudaBf16.units) u.mp = {DType::BF16, DType::F32, std::nullopt, true};
        LOAD(lc, cpu);
        LOAD(lg, cuda);
        LOAD(lb, cudaBf16);
        const Estimate ec = estimate(lc), eg = estimate(lg), eb = estimate(lb);
        auto at = [](const Estimate& e, const std::string& label, MemCategory c) {
            const int i = pointIndex(e, label);
            return i < 0 ? ~u64{0} : e.timeline[static_cast<std::size_t>(i)].memory[c];
        };
        QCOMPARE(at(eg, "start", MemCategory::Other) - at(ec, "start", MemCategory::Other), u64{64} << 20);
        QCOMPARE(at(eg, "optimizer step", MemCategory::Other) - at(ec, "optimizer step", MemCategory::Other), u64{64} << 20);
        const u64 logits = static_cast<u64>(cpu.training.microBatch) * static_cast<u64>(cpu.training.seqLen) *
                           static_cast<u64>(cpu.model.vocabSize);
        for (const Estimate* e : {&eg, &eb}) {
            QCOMPARE(at(*e, "loss", MemCategory::LogitsLoss), 8 * logits);
            QCOMPARE(at(*e, "loss backward", MemCategory::LogitsLoss), 12 * logits);
        }
        // On the CPU the core's fused cross-entropy keeps the logits in their
        // dtype and two floats a row; backward adds a gradient of their size.
        Plan cpuBf16 = cpu;
        for (UnitPolicy& u : cpuBf16.units) u.mp = {DType::BF16, DType::F32, std::nullopt, true};
        LOAD(lcb, cpuBf16);
        const Estimate ecb = estimate(lcb);
        const u64 rows = static_cast<u64>(cpu.training.microBatch) * static_cast<u64>(cpu.training.seqLen);
        QCOMPARE(at(ec, "loss", MemCategory::LogitsLoss), 4 * logits + 8 * rows);
        QCOMPARE(at(ec, "loss backward", MemCategory::LogitsLoss), 8 * logits + 8 * rows);
        QCOMPARE(at(ecb, "loss", MemCategory::LogitsLoss), 2 * logits + 8 * rows);
        QCOMPARE(at(ecb, "loss backward", MemCategory::LogitsLoss), 4 * logits + 8 * rows);
    }

    void gradientAccumulationKeepsUnshardedGrads()
    {
        Plan p = smallCuda("transformer");
        Plan acc = p;
        acc.training.gradAccum = 4;
        LOAD(lp, p);
        LOAD(la, acc);
        const Estimate e = estimate(lp), ea = estimate(la);
        QCOMPARE(e.timeline.front().memory[MemCategory::UnshardedGrads], u64(0));
        u64 padded = 0;
        for (const Param& prm : la.tree->params())
            if (prm.tiedTo < 0) padded += 4 * 8 * ((static_cast<u64>(prm.rows()) + 7) / 8) * static_cast<u64>(prm.rowNumel());
        QCOMPARE(ea.timeline.front().memory[MemCategory::UnshardedGrads], padded);
        QCOMPARE(ea.timeline.back().memory[MemCategory::UnshardedGrads], u64(0)); // reduced by the optimizer step
        QVERIFY(ea.peakBytes() > e.peakBytes());
    }

    void rootDefaultKeepsItsParameters()
    {
        Plan p = smallCuda("gpt2-124m");
        LOAD(lp, p);
        const Estimate e = estimate(lp);
        const int loss = pointIndex(e, "loss");
        const ResolvedPlan r = resolvePlan(lp.plan, *lp.tree);
        QVERIFY(!r.units[0].reshardAfterForward);
        QVERIFY(r.units[1].reshardAfterForward);
        u64 root = 0;
        for (int pi : r.units[0].params) {
            const Param& prm = lp.tree->param(pi);
            root += 4 * 8 * ((static_cast<u64>(prm.rows()) + 7) / 8) * static_cast<u64>(prm.rowNumel());
        }
        QCOMPARE(e.timeline[static_cast<std::size_t>(loss)].memory[MemCategory::UnshardedParams], root);
        p.units[0].reshard = {Reshard::True, 0};
        LOAD(lt, p);
        const Estimate et = estimate(lt);
        QCOMPARE(et.timeline[static_cast<std::size_t>(loss)].memory[MemCategory::UnshardedParams], u64(0));
    }

    void explicitPrefetchHoldsMoreBuffers()
    {
        Plan p = smallCuda("llama3-8b");
        Plan pf = p;
        pf.units[1].forwardPrefetch = {"layers.1", "layers.2"};
        LOAD(lp, p);
        LOAD(lpf, pf);
        const Estimate e = estimate(lp), epf = estimate(lpf);
        const int i = pointIndex(epf, "pre-forward layers.1");
        QVERIFY(epf.timeline[static_cast<std::size_t>(i)].memory[MemCategory::CommBuffers] >
                e.timeline[static_cast<std::size_t>(i)].memory[MemCategory::CommBuffers]);
        QVERIFY(sbtest::timelineMax(epf, MemCategory::CommBuffers) >= sbtest::timelineMax(e, MemCategory::CommBuffers));
    }

    void timelineShapeAndPeak()
    {
        LOAD(lp, smallCuda("gpt2-124m"));
        const Estimate e = estimate(lp);
        const std::size_t U = static_cast<std::size_t>(e.units);
        QCOMPARE(U, lp.plan.units.size());
        QCOMPARE(e.timeline.size(), 5 * U + 4); // start, pre/post-forward, loss, loss backward, pre/backward/post, optimizer
        QCOMPARE(e.timeline.front().phase, StepPhase::Start);
        QCOMPARE(e.timeline.back().phase, StepPhase::Optimizer);
        u64 max = 0;
        for (const TimelinePoint& p : e.timeline) max = std::max(max, p.memory.total());
        QCOMPARE(max, e.peakBytes());
        const RankEstimate& worst = e.ranks[static_cast<std::size_t>(e.worstRank)];
        QCOMPARE(e.timeline[static_cast<std::size_t>(worst.peakPoint)].memory.total(), worst.peakBytes);
        for (const RankEstimate& r : e.ranks) {
            QCOMPARE(r.atPeak.total(), r.peakBytes);
            QVERIFY(r.peakBytes <= e.peakBytes());
        }
        // Nothing transient is left after the optimizer step but its temporaries and the tokens.
        const MemBreakdown& last = e.timeline.back().memory;
        for (MemCategory c : {MemCategory::UnshardedParams, MemCategory::CommBuffers, MemCategory::UnshardedGrads,
                              MemCategory::Activations, MemCategory::LogitsLoss})
            QCOMPARE(last[c], u64(0));
        // Without the timeline the numbers are the same.
        const Estimate lean = estimateMemory(lp.plan, *lp.tree, resolvePlan(lp.plan, *lp.tree), EstimateOptions{false});
        QVERIFY(lean.timeline.empty());
        QCOMPARE(lean.peakBytes(), e.peakBytes());
        QCOMPARE(lean.worstRank, e.worstRank);
    }

    void largestMicroBatchFits()
    {
        Plan p = smallCuda("gpt2-124m");
        p.mesh.deviceMemoryBytes = 8 * kGiB;
        LOAD(lp, p);
        const int b = largestFittingMicroBatch(lp.plan, *lp.tree);
        QVERIFY(b >= 1);
        Plan fit = lp.plan;
        fit.training.microBatch = b;
        QVERIFY(estimateMemory(fit, *lp.tree).fits());
        fit.training.microBatch = b + 1;
        QVERIFY(!estimateMemory(fit, *lp.tree).fits());
        p.mesh.deviceMemoryBytes = 1024;
        QCOMPARE(largestFittingMicroBatch(p, *lp.tree), 0);
    }
};

QTEST_APPLESS_MAIN(TestEstimate)
#include "tst_estimate.moc"
