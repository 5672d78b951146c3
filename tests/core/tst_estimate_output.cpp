// The memory estimator's output: the JSON, CSV and table reports, and golden
// estimates of representative plans (tests/core/data/estimate/golden).
#include "test_support.hpp"

#include "estimate/estimate_report.hpp"

#include <QtTest/QtTest>

#include <algorithm>

using namespace sb;
using sbtest::q;

namespace {

using u64 = std::uint64_t;

Estimate estimate(const LoadedPlan& lp) { return estimateMemory(lp.plan, *lp.tree); }

} // namespace

class TestEstimateOutput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reports()
    {
        Plan p = defaultPlan(*presetConfig("gpt2-124m"));
        p.mesh.nodes = 1;
        p.mesh.procsPerNode = 7;
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        const Estimate e = estimate(lp);
        const json::Value j = estimateJson(lp.plan, e, true);
        QCOMPARE(static_cast<qint64>(j.find("params_total")->asInt()), Q_INT64_C(124439808));
        QCOMPARE(static_cast<int>(j.find("ranks")->size()), 7);
        for (const json::Value& r : j.find("ranks")->asArray()) {
            u64 sum = 0;
            for (int c = 0; c < kMemCategories; ++c) {
                const json::Value* v = r.find("categories")->find(memCategoryName(static_cast<MemCategory>(c)));
                QVERIFY(v && v->isInteger());
                sum += static_cast<u64>(v->asInt());
            }
            QCOMPARE(static_cast<u64>(r.find("peak_bytes")->asInt()), sum);
        }
        QCOMPARE(static_cast<int>(j.find("timeline")->size()), static_cast<int>(e.timeline.size()));
        const QStringList csv = q(estimateCsv(e)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 8);
        QCOMPARE(csv[0].split(QLatin1Char(',')).size(), 3 + kMemCategories);
        const QString table = q(estimateTable(lp.plan, e));
        QVERIFY(table.contains(QStringLiteral("124,439,808 parameters")));
        QVERIFY(table.contains(QStringLiteral("ranks 0-5")));
        QCOMPARE(q(formatBytes(96)), QStringLiteral("96 B"));
        QCOMPARE(q(formatBytes(1536)), QStringLiteral("1.50 KiB"));
        QCOMPARE(q(formatBytes(80 * kGiB)), QStringLiteral("80.00 GiB"));
        QCOMPARE(q(formatCount(-1234567)), QStringLiteral("-1,234,567"));
    }

    // Golden estimates guard against unintended changes (and keep optimisations
    // honest). SB_UPDATE_GOLDEN=1 rewrites them after an intended change.
    void golden_data()
    {
        QTest::addColumn<QString>("plan");
        const QDir dir(sbtest::dataPath(QStringLiteral("estimate/golden")));
        for (const QString& f : dir.entryList({QStringLiteral("*.plan.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
        QVERIFY(dir.entryList({QStringLiteral("*.plan.json")}, QDir::Files).size() >= 4);
    }
    void golden()
    {
        QFETCH(QString, plan);
        const LoadedPlan lp = loadAndValidate(plan.toStdString());
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        const std::string got = estimateJson(lp.plan, estimate(lp), true).dump(1) + "\n";
        QString expectedPath = plan;
        expectedPath.replace(QStringLiteral(".plan.json"), QStringLiteral(".estimate.json"));
        if (qEnvironmentVariableIntValue("SB_UPDATE_GOLDEN") == 1) QVERIFY(sbtest::writeBytes(expectedPath, QByteArray::fromStdString(got)));
        const json::ParseResult want = json::parse(sbtest::readText(expectedPath));
        QVERIFY(want);
        const json::ParseResult have = json::parse(got);
        QVERIFY(have);
        if (!(*want.value == *have.value)) {
            // Name the first differing rank or timeline point.
            const json::Array& wr = want.value->find("ranks")->asArray();
            const json::Array& hr = have.value->find("ranks")->asArray();
            for (std::size_t i = 0; i < std::min(wr.size(), hr.size()); ++i)
                QVERIFY2(wr[i] == hr[i], qPrintable(QStringLiteral("rank %1: want %2, got %3").arg(i).arg(q(wr[i].dump()), q(hr[i].dump()))));
            const json::Array& wt = want.value->find("timeline")->asArray();
            const json::Array& ht = have.value->find("timeline")->asArray();
            for (std::size_t i = 0; i < std::min(wt.size(), ht.size()); ++i)
                QVERIFY2(wt[i] == ht[i], qPrintable(QStringLiteral("point %1: want %2, got %3").arg(i).arg(q(wt[i].dump()), q(ht[i].dump()))));
            QFAIL("estimate differs from the golden file");
        }
    }
};

QTEST_APPLESS_MAIN(TestEstimateOutput)
#include "tst_estimate_output.moc"
