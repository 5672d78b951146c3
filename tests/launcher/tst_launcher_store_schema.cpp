// The run store's schema: an old database is migrated, a newer or damaged
// file is refused.
#include "store/connection.hpp"
#include "../status_checks.hpp"
#include "store/run_reader.hpp"
#include "store/schema.hpp"
#include "store/sqlite_run_store.hpp"
#include "store_test_data.hpp"

#include <QDir>
#include <QSqlError>
#include <QSqlQuery>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sb::store;
using namespace sb::store::test;

namespace {

// A database as schema `version` left it, with `statements` run on it: "" or what failed.
QString writeOldDatabase(const QString& path, int version, const QStringList& statements)
{
    const QString name = QStringLiteral("old-v%1").arg(version);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open()) return db.lastError().text();
        error = qtMessage(migrate(db, version));
        QSqlQuery q(db);
        for (const QString& sql : statements)
            if (error.isEmpty() && !q.exec(sql)) error = q.lastError().text();
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

// An old file opened as a store, which migrates it, and a reader of the result.
struct Migrated {
    std::unique_ptr<SqliteRunStore> store;
    std::unique_ptr<RunReader> reader;
    QString error; // why either is missing
};

Migrated openMigrated(const QString& path)
{
    Migrated m;
    auto store = SqliteRunStore::open(path);
    if (!store) return {nullptr, nullptr, QString::fromStdString(store.error())};
    m.store = std::move(store).value();
    auto reader = RunReader::open(path);
    if (!reader) return {nullptr, nullptr, QString::fromStdString(reader.error())};
    m.reader = std::move(reader).value();
    return m;
}

} // namespace

class LauncherStoreSchema : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void migratesAVersion1Database()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("old.sqlite"));
        const QString err0 = execSqlFile(path, QStringLiteral(SB_LAUNCHER_TEST_DATA "/store_v1.sql"));
        QVERIFY2(err0.isEmpty(), qPrintable(err0));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 1);

        QString err;
        auto storeOpened = SqliteRunStore::open(path);
        QVERIFY2(storeOpened, storeOpened.error().c_str());
        auto store = std::move(storeOpened).value();
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), kSchemaVersion);
        // New columns and tables work on the migrated file.
        const qint64 id = store->createRun(sampleRun(QStringLiteral("new-run"))).value();
        QVERIFY(id == 3);
        store->recordAttempt({id, 0, 1.0, 2.0, QStringLiteral("completed"), QString(), QString(), {}, -1, QString()});
        store->addStepMetrics(metric(id, 0, 1, 0, 1.0));
        store->addStepMetrics(metric(1, 0, 1, 1, 9.0)); // a second attempt of an old run's step
        SB_VERIFY_OK(store->flush());

        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const auto old = reader->run(1);
        QVERIFY(old.has_value());
        QCOMPARE(old->name, QStringLiteral("old run"));
        QCOMPARE(old->status, QStringLiteral("completed"));
        QCOMPARE(old->restarts, 0);
        QCOMPARE(reader->run(2)->failingRank, 1);
        QCOMPARE(reader->run(2)->parentRun, 1);
        const MetricSeries s = reader->series(1, Metric::Loss, -1, false);
        QCOMPARE(s.size(), 5);
        const MetricSeries latest = reader->series(1, Metric::Loss, 0);
        QCOMPARE(latest.values, (QVector<double>{9.0, 6.25}));
        QCOMPARE(reader->series(1, Metric::MemPeak, 1).values, (QVector<double>{2001, 2001}));
        QCOMPARE(reader->events(1).size(), 1);
        QCOMPARE(reader->logs(1).size(), 1);
        QCOMPARE(reader->checkpoints(1).size(), 1);
        QCOMPARE(reader->checkpoints(1)[0].attempt, 0);
        QCOMPARE(reader->hosts()[0].user, QStringLiteral("alice"));
        QCOMPARE(scalar(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'saved_plans'")).toInt(), 0);
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA integrity_check")).toString(), QStringLiteral("ok"));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    }

    // Version 3 -> 4: the reason code columns come, saved_plans goes; an old
    // run keeps its English reason with no code, and a text-only update
    // clears a code it no longer matches.
    void migratesAVersion3Database()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("v3.sqlite"));
        QCOMPARE(writeOldDatabase(path, 3,
                                  {QStringLiteral("INSERT INTO runs (uid, plan_json, backend, world_size, status, created_at, reason) "
                                                  "VALUES ('old', '{}', 'local', 2, 'failed', 1.0, "
                                                  "'rank 1 exited with code 1 (runtime failure)')")}),
                 QString());
        auto [store, reader, error] = openMigrated(path);
        QVERIFY2(store && reader, qPrintable(error));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), kSchemaVersion);
        QCOMPARE(scalar(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'saved_plans'")).toInt(), 0);
        QCOMPARE(reader->run(1)->reason, QStringLiteral("rank 1 exited with code 1 (runtime failure)"));
        QCOMPARE(reader->run(1)->reasonCode, QString());
        QVERIFY(reader->run(1)->reasonArgs.isEmpty());

        RunUpdate coded;
        coded.runId = 1;
        coded.reason = QStringLiteral("the ranks stopped without finishing");
        coded.reasonCode = QStringLiteral("run.unfinished");
        store->updateRun(coded);
        SB_VERIFY_OK(store->flush());
        QCOMPARE(reader->run(1)->reasonCode, QStringLiteral("run.unfinished"));
        RunUpdate text;
        text.runId = 1;
        text.reason = QStringLiteral("something said in English only");
        store->updateRun(text);
        SB_VERIFY_OK(store->flush());
        QCOMPARE(reader->run(1)->reason, text.reason.value());
        QCOMPARE(reader->run(1)->reasonCode, QString());
    }

    // Version 4 -> 5: an attempt keeps its reason's code and arguments; an
    // attempt recorded before keeps its English text with no code.
    void migratesAVersion4Database()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("v4.sqlite"));
        QCOMPARE(writeOldDatabase(path, 4,
                                  {QStringLiteral("INSERT INTO runs (uid, plan_json, backend, world_size, status, created_at) "
                                                  "VALUES ('old', '{}', 'local', 2, 'failed', 1.0)"),
                                   QStringLiteral("INSERT INTO run_attempts (run_id, attempt, status, reason) "
                                                  "VALUES (1, 0, 'failed', 'rank 1 on a exited with code 1')")}),
                 QString());
        auto [store, reader, error] = openMigrated(path);
        QVERIFY2(store && reader, qPrintable(error));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), kSchemaVersion);
        QCOMPARE(reader->attempts(1).value(0).reason, QStringLiteral("rank 1 on a exited with code 1"));
        QCOMPARE(reader->attempts(1).value(0).reasonCode, QString());

        AttemptRecord next;
        next.runId = 1;
        next.attempt = 1;
        next.status = QStringLiteral("failed");
        next.reason = QStringLiteral("rank 0 on b was killed by signal 9 (SIGKILL)");
        next.reasonCode = QStringLiteral("rank.killed");
        next.reasonArgs = {QStringLiteral("0"), QStringLiteral("b"), QStringLiteral("9"), QStringLiteral("SIGKILL")};
        store->recordAttempt(next);
        SB_VERIFY_OK(store->flush());
        const AttemptRecord back = reader->attempts(1).value(1);
        QCOMPARE(back.reasonCode, next.reasonCode);
        QCOMPARE(back.reasonArgs, next.reasonArgs);
    }

    void refusesANewerSchemaAndOtherFiles()
    {
        QTemporaryDir tmp;
        const QString newer = tmp.filePath(QStringLiteral("newer.sqlite"));
        {
            auto s = SqliteRunStore::open(newer);
            QVERIFY2(s, s.error().c_str());
        }
        QVERIFY(execSqlFile(newer, tmp.filePath(QStringLiteral("none.sql"))).contains(QLatin1String("cannot read")));
        QVERIFY(sb::store::kSchemaVersion < 99);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bump"));
            db.setDatabaseName(newer);
            QVERIFY(db.open());
            QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version = 99"));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bump"));
        // Each refusal names what is wrong.
        auto refusal = [](const auto& opened) { return opened ? QString() : qtMessage(opened); };
        QString err = refusal(SqliteRunStore::open(newer));
        QVERIFY2(err.contains(QLatin1String("newer")), qPrintable(err));
        err = refusal(RunReader::open(newer));
        QVERIFY2(err.contains(QLatin1String("newer")), qPrintable(err));

        const QString garbage = tmp.filePath(QStringLiteral("garbage.sqlite"));
        QFile g(garbage);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(QByteArray(8192, 'x'));
        g.close();
        err = refusal(SqliteRunStore::open(garbage));
        QVERIFY2(err.contains(QLatin1String("not a usable SQLite database")), qPrintable(err));

        err = refusal(SqliteRunStore::open(tmp.path()));
        QVERIFY2(err.contains(QLatin1String("folder")), qPrintable(err));
        err = refusal(RunReader::open(tmp.filePath(QStringLiteral("missing.sqlite"))));
        QVERIFY2(err.contains(QLatin1String("no run store")), qPrintable(err));
    }

};

QTEST_GUILESS_MAIN(LauncherStoreSchema)
#include "tst_launcher_store_schema.moc"
