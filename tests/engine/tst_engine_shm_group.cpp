// The shared-memory group's channel rotation, in process with a group of one
// rank (a HashStore for the rendezvous): which channel a collective takes,
// and when it must fall back to Gloo. Every rank runs the same sequence, so
// one rank's decisions are every rank's. Then its all-reduce between two
// ranks on threads, and the reduce-scatter's last step (grad_mean.hpp)
// against LibTorch's own ops.
#include "grad_mean.hpp"
#include "shm_group.hpp"

#include <QtTest>

#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <algorithm>
#include <cstring>
#include <sched.h>
#include <set>
#include <thread>

using sb::engine::ShmGroup;

namespace {

constexpr std::size_t kRegion = 4096;

std::unique_ptr<ShmGroup> openGroup(const c10::intrusive_ptr<::c10d::Store>& store = c10::make_intrusive<::c10d::HashStore>(),
                                    int rank = 0, int size = 1)
{
    auto g = ShmGroup::open(store, "test/", rank, size, kRegion, kRegion, 5);
    if (!g) qFatal("ShmGroup::open: %s", g.status().message().c_str());
    return std::move(g).value();
}

// One whole collective on a channel: acquire, post, wait, release.
int roundTrip(ShmGroup& g, ShmGroup::Pool pool)
{
    ShmGroup::Ticket t = g.acquire(pool, 0);
    const int channel = t.channel;
    g.post(t);
    g.waitAll(t);
    g.release(t);
    return channel;
}

} // namespace

class EngineShmGroup : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void heldChannelLeavesTheRotation()
    {
        // The root unit stays gathered through forward and backward: its
        // channel is held while every block's gather comes and goes. The
        // others must keep using the free channels (they went to Gloo once
        // the rotation came round to the held one).
        auto g = openGroup();
        ShmGroup::Ticket root = g->acquire(ShmGroup::Pool::Gather, 0);
        std::set<int> used;
        for (int i = 0; i < 4 * ShmGroup::kGatherChannels; ++i) {
            QVERIFY2(g->canAcquire(ShmGroup::Pool::Gather, kRegion), qPrintable(QStringLiteral("gather %1 left shared memory").arg(i)));
            const int channel = roundTrip(*g, ShmGroup::Pool::Gather);
            QVERIFY(channel != root.channel);
            used.insert(channel);
        }
        QCOMPARE(static_cast<int>(used.size()), ShmGroup::kGatherChannels - 1); // all the others, in turn
        g->release(root);
    }

    void prefetchesHoldSeveral()
    {
        // A unit gathered, the next prefetched, the one before released:
        // holding two at a time never runs out of channels.
        auto g = openGroup();
        ShmGroup::Ticket held = g->acquire(ShmGroup::Pool::Gather, 0);
        for (int i = 0; i < 3 * ShmGroup::kGatherChannels; ++i) {
            QVERIFY(g->canAcquire(ShmGroup::Pool::Gather, kRegion));
            ShmGroup::Ticket next = g->acquire(ShmGroup::Pool::Gather, 0);
            QVERIFY(next.channel != held.channel);
            g->release(held);
            held = next;
        }
        g->release(held);
    }

    void everyChannelHeldFallsBack()
    {
        auto g = openGroup();
        std::vector<ShmGroup::Ticket> held;
        for (int i = 0; i < ShmGroup::kGatherChannels; ++i) {
            QVERIFY(g->canAcquire(ShmGroup::Pool::Gather, kRegion));
            held.push_back(g->acquire(ShmGroup::Pool::Gather, 0));
        }
        QVERIFY(!g->canAcquire(ShmGroup::Pool::Gather, kRegion));
        bool threw = false;
        try {
            g->acquire(ShmGroup::Pool::Gather, 0);
        } catch (const std::logic_error&) {
            threw = true;
        }
        QVERIFY2(threw, "acquire() with every channel held did not refuse");
        const int freed = held[2].channel;
        g->release(held[2]);
        QVERIFY(g->canAcquire(ShmGroup::Pool::Gather, kRegion));
        QCOMPARE(roundTrip(*g, ShmGroup::Pool::Gather), freed);
        // The reduce pool is separate.
        QVERIFY(g->canAcquire(ShmGroup::Pool::Reduce, kRegion));
        for (auto& t : held) g->release(t);
    }

    void untouchedRegionIsTakenAgain()
    {
        // A unit's backward gather takes the channel its forward gather
        // released when no collective has used it since: the rows are still
        // there. Once another collective has, it takes the rotation's channel.
        auto g = openGroup();
        ShmGroup::Ticket first = g->acquire(ShmGroup::Pool::Gather, 0);
        std::memcpy(g->region(first), "rows", 5);
        g->post(first);
        g->waitAll(first);
        const ShmGroup::Ticket forward = first;
        g->release(first);
        QVERIFY(g->untouched(forward));
        QVERIFY(roundTrip(*g, ShmGroup::Pool::Gather) != forward.channel); // another channel: still untouched
        QVERIFY(g->untouched(forward));
        ShmGroup::Ticket again = g->acquire(ShmGroup::Pool::Gather, 0, &forward);
        QCOMPARE(again.channel, forward.channel);
        QVERIFY(again.use != forward.use); // a new use: every rank waits for every other again
        QCOMPARE(QByteArray(g->region(again)), QByteArray("rows"));
        QVERIFY(!g->untouched(forward)); // held
        const ShmGroup::Ticket backward = again;
        g->post(again);
        g->waitAll(again);
        g->release(again);
        QVERIFY(!g->untouched(forward)); // used since
        QVERIFY(g->untouched(backward));
        // Used by other collectives since: the rotation decides.
        for (int i = 0; i < ShmGroup::kGatherChannels; ++i) roundTrip(*g, ShmGroup::Pool::Gather);
        QVERIFY(!g->untouched(backward));
        const int rotation = roundTrip(*g, ShmGroup::Pool::Gather);
        for (int i = 1; i < ShmGroup::kGatherChannels; ++i) roundTrip(*g, ShmGroup::Pool::Gather); // round to `rotation` again
        ShmGroup::Ticket later = g->acquire(ShmGroup::Pool::Gather, 0, &backward);
        QCOMPARE(later.channel, rotation);
        g->release(later);
        // Nor is a ticket of the other pool, or none, taken.
        QVERIFY(!g->untouched(ShmGroup::Ticket()));
    }

    void allReduceSumsTwoRanks()
    {
        auto store = c10::make_intrusive<::c10d::HashStore>();
        std::unique_ptr<ShmGroup> groups[2];
        std::thread opener([&] { groups[1] = openGroup(store, 1, 2); });
        groups[0] = openGroup(store, 0, 2);
        opener.join();
        torch::Tensor values[2] = {torch::tensor({1.5, -2.0, 1e-300}, torch::kDouble),
                                   torch::tensor({0.25, 4.0, 1e-300}, torch::kDouble)};
        for (int round = 0; round < 3; ++round) { // channels reused in turn
            std::thread peer([&] { groups[1]->allReduceSum(values[1]); });
            groups[0]->allReduceSum(values[0]);
            peer.join();
            for (const torch::Tensor& v : values) {
                QCOMPARE(v[0].item<double>(), 1.75 * (1 << round));
                QCOMPARE(v[1].item<double>(), 2.0 * (1 << round));
                QCOMPARE(v[2].item<double>(), 2e-300 * (1 << round));
            }
        }
        QVERIFY(groups[0]->canAllReduce(torch::zeros({2}, torch::kFloat)));
        QVERIFY(!groups[0]->canAllReduce(torch::zeros({2}, torch::kLong)));
        QVERIFY(!groups[0]->canAllReduce(torch::zeros({4, 4}, torch::kDouble).t())); // not contiguous
        QVERIFY(!groups[0]->canAllReduce(torch::zeros({1 << 20}, torch::kDouble)));  // larger than a slot
    }

    void meanOfRowsMatchesSumThenScale_data()
    {
        QTest::addColumn<int>("ways");
        QTest::addColumn<int>("n");
        QTest::newRow("one rank") << 1 << 3000;
        QTest::newRow("two ranks, blocks and a tail") << 2 << 5000;
        QTest::newRow("three ranks") << 3 << 4097;
        QTest::newRow("empty") << 2 << 0;
    }

    void meanOfRowsMatchesSumThenScale()
    {
        // What the reduce-scatter's finish computed with LibTorch's ops: sum
        // over the ranks' rows, then add_(sum, 1/W) into zeroed gradients; the
        // fused pass must give the same bits, from a strided slot view too.
        QFETCH(int, ways);
        QFETCH(int, n);
        torch::manual_seed(7);
        const torch::Tensor slots = torch::randn({ways, n + 64}) * 1e3;
        const torch::Tensor rows = slots.narrow(1, 32, n); // rows a slot's length apart
        const float scale = static_cast<float>(1.0 / ways);
        QVERIFY(sb::engine::meansRowsInPlace(rows, torch::empty({n})));
        torch::Tensor expected = torch::zeros({n});
        expected.add_(rows.sum(0, false, torch::kFloat), scale);
        torch::Tensor fused = torch::full({n}, std::nanf(""));
        sb::engine::meanOfRowsInto(fused, rows, scale, false);
        QVERIFY(torch::equal(fused, expected));
        // Accumulating into gradients held already.
        const torch::Tensor before = torch::randn({n});
        torch::Tensor acc = before.clone();
        sb::engine::meanOfRowsInto(acc, rows, scale, true);
        QVERIFY(torch::allclose(acc, before + expected, 1e-6, 1e-6));
        // bf16 gradients published as they are: the same bits as a cast of
        // every slot to fp32 before the sum (what FSDP2's reduce_dtype does).
        const torch::Tensor narrowSlots = slots.to(torch::kBFloat16);
        const torch::Tensor narrowRows = narrowSlots.narrow(1, 32, n);
        QVERIFY(sb::engine::meansRowsInPlace(narrowRows, torch::empty({n})));
        torch::Tensor widened = torch::zeros({n});
        widened.add_(narrowRows.to(torch::kFloat).sum(0), scale);
        torch::Tensor fromBf16 = torch::full({n}, std::nanf(""));
        sb::engine::meanOfRowsInto(fromBf16, narrowRows, scale, false);
        QVERIFY(torch::equal(fromBf16, widened));
        torch::Tensor accBf16 = before.clone();
        sb::engine::meanOfRowsInto(accBf16, narrowRows, scale, true);
        QVERIFY(torch::equal(accBf16, before + widened));
        // A gradient that is not one flat fp32 buffer, or fp16 rows, take the ops.
        QVERIFY(!sb::engine::meansRowsInPlace(rows.to(torch::kHalf), torch::empty({n})));
        QVERIFY(!sb::engine::meansRowsInPlace(narrowRows, torch::empty({n}, torch::kBFloat16)));
        QVERIFY(!sb::engine::meansRowsInPlace(rows, torch::empty({n + 1})));
        QVERIFY(!sb::engine::meansRowsInPlace(rows, torch::empty({n}, torch::kDouble)));
    }

    void waitsSpinWhileEveryRankHasACpu()
    {
        // Sleeping at once halts the vCPU (docs/performance.md): a group with a
        // CPU per rank spins first; an oversubscribed one must not take the
        // CPU its peers need.
        qunsetenv("SB_SHM_SPIN_US");
        cpu_set_t set;
        CPU_ZERO(&set);
        QCOMPARE(sched_getaffinity(0, sizeof set, &set), 0);
        int cpus = CPU_COUNT(&set);
        const int quota = ShmGroup::cgroupCpuQuota();
        qInfo("affinity mask: %d CPUs; cgroup CPU quota: %d CPUs (0: none)", cpus, quota);
        if (quota > 0) cpus = std::min(cpus, quota);
        QCOMPARE(ShmGroup::spinMicroseconds(cpus), 50000L);
        QCOMPARE(ShmGroup::spinMicroseconds(1), 50000L);
        QCOMPARE(ShmGroup::spinMicroseconds(cpus + 1), 0L);
        qputenv("SB_SHM_SPIN_US", "250");
        QCOMPARE(ShmGroup::spinMicroseconds(cpus + 1), 250L);
        qputenv("SB_SHM_SPIN_US", "0");
        QCOMPARE(ShmGroup::spinMicroseconds(1), 0L);
        for (const char* bad : {"-5", "fast", "12ms", ""}) { // ignored, with a note
            qputenv("SB_SHM_SPIN_US", bad);
            QCOMPARE(ShmGroup::spinMicroseconds(1), 50000L);
        }
        qunsetenv("SB_SHM_SPIN_US");
        // A container's CPU limit is a quota: docker --cpus=1.5 is 150000 per 100000.
        QCOMPARE(ShmGroup::cpusOfQuota(150000, 100000), 2);
        QCOMPARE(ShmGroup::cpusOfQuota(100000, 100000), 1);
        QCOMPARE(ShmGroup::cpusOfQuota(20000, 100000), 1);
        QCOMPARE(ShmGroup::cpusOfQuota(-1, 100000), 0); // v1's "no quota"
        QCOMPARE(ShmGroup::cpusOfQuota(100000, 0), 0);
        QVERIFY(ShmGroup::cgroupCpuQuota() >= 0);
        // A wait for a rank that has posted returns at once, spinning or not.
        auto g = openGroup();
        QCOMPARE(roundTrip(*g, ShmGroup::Pool::Reduce) >= 0, true);
    }

    void tooLargeFallsBack()
    {
        auto g = openGroup();
        QVERIFY(!g->canAcquire(ShmGroup::Pool::Gather, 1 << 20));
        QVERIFY(!g->canAcquire(ShmGroup::Pool::Reduce, 1 << 20));
    }
};

QTEST_GUILESS_MAIN(EngineShmGroup)
#include "tst_engine_shm_group.moc"
