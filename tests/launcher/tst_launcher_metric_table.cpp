// The step metrics are listed once, in core/protocol: the store's metric
// list, the step_metrics columns of a fresh store, the values written and
// read back, and the CLI's CSV header all follow that table, in its order.
#include "launcher_test_support.hpp"
#include "../run_store_fixture.hpp"
#include "../status_checks.hpp"
#include "events/step_fields.hpp"
#include "protocol/step_metrics.hpp"
#include "store/connection.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::store;
using namespace sb::store::test;

class LauncherMetricTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storeListIsTheProtocolTable()
    {
        const auto& core = protocol::stepMetrics();
        QCOMPARE(metricInfos().size(), core.size());
        QCOMPARE(protocol::stepFields().size(), core.size());
        for (std::size_t i = 0; i < core.size(); ++i) {
            const MetricInfo& m = metricInfos()[i];
            QCOMPARE(QLatin1String(m.column), QLatin1String(core[i].name));
            QCOMPARE(m.integer, core[i].integer);
            QCOMPARE(QLatin1String(m.unit), QLatin1String(core[i].unit));
            QCOMPARE(static_cast<std::size_t>(m.metric), i);
            QCOMPARE(parseMetric(QString::fromLatin1(m.column)), std::optional<Metric>(m.metric));
            QVERIFY(m.integer ? m.field->count != nullptr : m.field->real != nullptr);
        }
        // The names the code refers to by enum.
        QCOMPARE(QLatin1String(metricInfo(Metric::Loss).column), QLatin1String("loss"));
        QCOMPARE(QLatin1String(metricInfo(Metric::DeviceMemUsed).column), QLatin1String("device_mem_used"));
    }

    void storeColumnsAndRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.sqlite"));
        auto [store, id, error] = storeWithRun(path, bareRun(QStringLiteral("uid-table"), QStringLiteral("local"), 1, 1700000000));
        QVERIFY2(store, qPrintable(error));
        MetricRow row;
        row.runId = id;
        row.m.rank = 0;
        row.m.step = 1;
        row.m.t = 1700000001;
        // A distinct value per metric, so a column bound to the wrong member shows.
        int i = 1;
        for (const MetricInfo& m : metricInfos()) {
            if (m.integer) row.m.*m.field->count = 1000 * i;
            else row.m.*m.field->real = 0.25 * i;
            ++i;
        }
        store->addStepMetrics(row);
        SB_VERIFY_OK(store->flush());

        QSqlDatabase db; // no other copy may outlive closeStoreConnection
        {
            const Result<QSqlDatabase> connected = openStoreConnection(path, {});
            SB_VERIFY_OK(connected);
            db = connected.value();
        }
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("PRAGMA table_info(step_metrics)")));
            QMap<QString, QString> types;
            while (q.next()) types[q.value(1).toString()] = q.value(2).toString().toUpper();
            for (const MetricInfo& m : metricInfos()) {
                const QString col = QString::fromLatin1(m.column);
                QVERIFY2(types.contains(col), m.column);
                QCOMPARE(types[col], m.integer ? QStringLiteral("INTEGER") : QStringLiteral("REAL"));
            }
        }
        closeStoreConnection(db);
        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        int rows = 0;
        QVERIFY(reader->forEachStepRow(id, -1, [&](const MetricRow& back) {
            ++rows;
            for (const MetricInfo& m : metricInfos()) QCOMPARE(m.field->value(back.m), m.field->value(row.m));
        }));
        QCOMPARE(rows, 1);
        for (const MetricInfo& m : metricInfos()) {
            const MetricSeries s = reader->series(id, m.metric);
            QCOMPARE(s.size(), qsizetype(1));
            QCOMPARE(s.values[0], m.field->value(row.m));
        }
        reader.reset();
        store.reset();

        const sb::test::CliResult csv =
            sb::test::runCli({QStringLiteral("metrics"), QStringLiteral("uid-table"), QStringLiteral("--csv"),
                            QStringLiteral("--db"), path}, 30000);
        QVERIFY2(csv.code == 0, qPrintable(sb::test::describe(csv)));
        QString header = QStringLiteral("attempt,rank,step,t");
        for (const protocol::StepMetric& m : protocol::stepMetrics()) header += QLatin1Char(',') + QLatin1String(m.name);
        const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], header);
        QCOMPARE(lines[1].count(QLatin1Char(',')), header.count(QLatin1Char(',')));
    }
};

QTEST_GUILESS_MAIN(LauncherMetricTable)
#include "tst_launcher_metric_table.moc"
