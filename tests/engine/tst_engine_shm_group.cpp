// The shared-memory group's channel rotation, in process with a group of one
// rank (a HashStore for the rendezvous): which channel a collective takes,
// and when it must fall back to Gloo. Every rank runs the same sequence, so
// one rank's decisions are every rank's.
#include "shm_group.hpp"

#include <QtTest>

#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <set>

using sb::engine::ShmGroup;

namespace {

constexpr std::size_t kRegion = 4096;

std::unique_ptr<ShmGroup> openGroup()
{
    auto store = c10::make_intrusive<::c10d::HashStore>();
    auto g = ShmGroup::open(store, "test/", 0, 1, kRegion, kRegion, 5);
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

    void tooLargeFallsBack()
    {
        auto g = openGroup();
        QVERIFY(!g->canAcquire(ShmGroup::Pool::Gather, 1 << 20));
        QVERIFY(!g->canAcquire(ShmGroup::Pool::Reduce, 1 << 20));
    }
};

QTEST_GUILESS_MAIN(EngineShmGroup)
#include "tst_engine_shm_group.moc"
