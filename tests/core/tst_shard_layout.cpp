// The one dim-0 shard layout (core/plan/shard_layout): chunk = ceil(rows / W),
// the row ranges tile [0, rows) in rank order without overlap, trailing ranks
// may hold fewer rows or none, and the edge cases (rows < W, rows = 0, W = 1,
// rows not divisible by W) hold.
#include "plan/shard_layout.hpp"

#include <QtTest/QtTest>

using namespace sb;

class TestShardLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void examples()
    {
        QCOMPARE(shardChunkRows(10, 4), 3);
        QCOMPARE(paddedRows(10, 4), 12);
        QCOMPARE(fullShardRanks(10, 4), 3);
        QCOMPARE(shardRows(10, 4, 0).begin, 0);
        QCOMPARE(shardRows(10, 4, 2).end, 9);
        QCOMPARE(shardRows(10, 4, 3).begin, 9); // the remainder: one row
        QCOMPARE(shardRows(10, 4, 3).count(), 1);
    }

    void rowsFewerThanRanks()
    {
        // 2 rows over 4 ranks: chunk 1, ranks 2 and 3 hold nothing.
        QCOMPARE(shardChunkRows(2, 4), 1);
        QCOMPARE(fullShardRanks(2, 4), 2);
        QCOMPARE(shardRows(2, 4, 1).begin, 1);
        QCOMPARE(shardRows(2, 4, 2).count(), 0);
        QCOMPARE(shardRows(2, 4, 3).count(), 0);
        QCOMPARE(shardRows(2, 4, 3).begin, 2);
        // 5 rows over 4 ranks: chunk 2, rank 3 holds none (2 + 2 + 1 + 0).
        QCOMPARE(shardRows(5, 4, 2).count(), 1);
        QCOMPARE(shardRows(5, 4, 3).count(), 0);
    }

    void zeroRows()
    {
        QCOMPARE(shardChunkRows(0, 3), 0);
        QCOMPARE(paddedRows(0, 3), 0);
        QCOMPARE(fullShardRanks(0, 3), 3);
        for (int r = 0; r < 3; ++r) QCOMPARE(shardRows(0, 3, r).count(), 0);
    }

    void oneRank()
    {
        QCOMPARE(shardChunkRows(7, 1), 7);
        QCOMPARE(paddedRows(7, 1), 7);
        QCOMPARE(fullShardRanks(7, 1), 1);
        QCOMPARE(shardRows(7, 1, 0).begin, 0);
        QCOMPARE(shardRows(7, 1, 0).end, 7);
    }

    void rangesTileTheRows()
    {
        for (std::int64_t rows = 0; rows <= 40; ++rows) {
            for (std::int64_t ways = 1; ways <= 9; ++ways) {
                const std::int64_t chunk = shardChunkRows(rows, ways);
                QVERIFY(chunk * ways >= rows && (chunk == 0 || (chunk - 1) * ways < rows));
                QCOMPARE(paddedRows(rows, ways), chunk * ways);
                std::int64_t next = 0;
                for (std::int64_t r = 0; r < ways; ++r) {
                    const ShardRows s = shardRows(rows, ways, r);
                    QCOMPARE(s.begin, next);
                    QVERIFY(s.count() >= 0 && s.count() <= chunk);
                    QCOMPARE(s.count() == chunk, r < fullShardRanks(rows, ways));
                    next = s.end;
                }
                QCOMPARE(next, rows);
            }
        }
    }
};

QTEST_MAIN(TestShardLayout)
#include "tst_shard_layout.moc"
