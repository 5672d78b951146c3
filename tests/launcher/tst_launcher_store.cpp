// The SQLite run store: what is written is read back exactly, and a writer
// killed with SIGKILL mid-ingest leaves a sound database with every committed
// row. Migrations and refused files: tst_launcher_store_schema.cpp.
#include "events/event_line.hpp"
#include "launch/abandoned_runs.hpp"
#include "launch/run_rows.hpp"
#include "../status_checks.hpp"
#include "../safe_signal.hpp"
#include "store/connection.hpp"
#include "store/run_reader.hpp"
#include "store/schema.hpp"
#include "store/sqlite_run_store.hpp"
#include "store_test_data.hpp"
#include "../run_store_fixture.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>

using namespace sb::store;
using namespace sb::store::test;

class LauncherStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The workbench's Rename, Tags, Notes and Delete: a person's words are kept
    // and cleared; a deleted run takes every row about it, and only those.
    void namesTagsNotesAndDelete()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("runs.sqlite"));
        auto [store, a, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-a"), QStringLiteral("baseline")));
        QVERIFY2(store, qPrintable(error));
        NewRun child = sampleRun(QStringLiteral("uid-b"), QStringLiteral("resumed"));
        child.parentRun = a;
        const qint64 b = store->createRun(child).value();
        for (qint64 id : {a, b}) {
            for (int step = 1; step <= 3; ++step) store->addStepMetrics(metric(id, 0, step, 0, 5.0));
            store->addLog({id, 0, 0, 1700000003.0, LogStream::Stderr, QStringLiteral("a line")});
            store->addEvent({id, 0, 0, 1700000002.0, QStringLiteral("hello"), "{}"});
            store->recordAttempt({id, 0, 1700000001.0, 1700000061.0, QStringLiteral("completed"), {}, {}, {}, -1, {}});
        }
        RunUpdate words;
        words.runId = a;
        words.name = QStringLiteral("baseline, 8 layers");
        words.tags = QStringList{QStringLiteral("lr-sweep"), QStringLiteral("fp32 \"ref\"")};
        words.notes = QStringLiteral("diverged once at step 4000;\nrestarted");
        store->updateRun(words);
        SB_VERIFY_OK(store->flush());
        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        std::optional<RunRow> row = reader->run(a);
        QCOMPARE(row->name, words.name.value());
        QCOMPARE(row->tags, words.tags.value());
        QCOMPARE(row->notes, words.notes.value());
        QCOMPARE(reader->run(b)->tags, QStringList());
        // Empty tags and notes clear them.
        RunUpdate clear;
        clear.runId = a;
        clear.tags = QStringList();
        clear.notes = QString();
        store->updateRun(clear);
        QVERIFY(store->flush());
        row = reader->run(a);
        QCOMPARE(row->tags, QStringList());
        QCOMPARE(row->notes, QString());
        QCOMPARE(row->name, words.name.value()); // untouched

        store->deleteRun({a});
        SB_VERIFY_OK(store->flush());
        QVERIFY(!reader->run(a).has_value());
        for (const char* table : {"step_metrics", "logs", "events", "run_attempts"}) {
            QCOMPARE(scalar(path, QStringLiteral("SELECT COUNT(*) FROM %1 WHERE run_id = %2").arg(QLatin1String(table)).arg(a)).toInt(), 0);
            QVERIFY(scalar(path, QStringLiteral("SELECT COUNT(*) FROM %1 WHERE run_id = %2").arg(QLatin1String(table)).arg(b)).toInt() > 0);
        }
        QCOMPARE(reader->run(b)->parentRun, qint64(-1)); // the resumed run stays, no longer pointing at it
        QCOMPARE(reader->series(b, Metric::Loss).size(), 3);
    }

    // A rank's `system` events, through the one writer of a run's rows (as a
    // supervised run and a detached run's ingest store them): a row each in
    // system_samples, absent fields NULL, an ingested line stored once, none
    // in the events table; deleting the run deletes them, and only them.
    void systemSamplesAreStoredAndDeletedWithTheRun()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("runs.sqlite"));
        auto [store, a, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-a"), QStringLiteral("a")));
        QVERIFY2(store, qPrintable(error));
        const qint64 b = store->createRun(sampleRun(QStringLiteral("uid-b"), QStringLiteral("b"))).value();
        auto line = [](int rank, double t, const sb::protocol::System& s) {
            const std::string text = sb::protocol::formatLine({sb::protocol::type::system, 1, rank, t, "r"}, s.toJson());
            const sb::protocol::ParsedLine p = sb::protocol::parseOutputLine(QByteArray::fromStdString(text).trimmed());
            return std::make_pair(p.event, QByteArray::fromStdString(p.event.body.dump()));
        };
        sb::protocol::System gpu;
        gpu.cpuUtil = 99.5;
        gpu.hostRss = 5LL << 30;
        gpu.gpuUtil = 87;
        gpu.gpuPowerW = 612.5;
        gpu.gpuTempC = 66;
        gpu.gpuSmClockMhz = 1980;
        sb::protocol::System cpu;
        cpu.cpuUtil = 12.25;
        cpu.hostRss = 300LL << 20;
        sb::launch::RunRows rowsA(*store, a);
        for (const auto& [e, json] : {line(0, 1700000000.0, gpu), line(1, 1700000001.0, cpu)}) rowsA.event(0, e, json);
        const auto ingested = line(1, 1700000006.0, cpu);
        for (int fetch = 0; fetch < 2; ++fetch) rowsA.event(1, ingested.first, ingested.second, QStringLiteral("attempt-1/rank-1.events:120"));
        sb::launch::RunRows(*store, b).event(0, line(0, 1700000002.0, cpu).first, "{}");
        SB_VERIFY_OK(store->flush());

        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const QList<SystemSample> samples = reader->systemSamples(a);
        QCOMPARE(samples.size(), 3);
        QCOMPARE(samples[0].rank, 0);
        QCOMPARE(samples[0].t, 1700000000.0);
        QCOMPARE(samples[0].cpuUtil, 99.5);
        QCOMPARE(samples[0].hostRss, 5LL << 30);
        QCOMPARE(samples[0].gpuUtil, 87.0);
        QCOMPARE(samples[0].gpuPowerW, 612.5);
        QCOMPARE(samples[0].gpuTempC, 66.0);
        QCOMPARE(samples[0].gpuSmClockMhz, 1980.0);
        QCOMPARE(samples[1].rank, 1);
        QCOMPARE(samples[1].hostRss, 300LL << 20);
        QVERIFY(std::isnan(samples[1].gpuUtil) && std::isnan(samples[1].gpuPowerW));
        QCOMPARE(samples[2].attempt, 1);
        QCOMPARE(reader->systemSamples(a, 1).size(), 2);
        QCOMPARE(scalar(path, QStringLiteral("SELECT COUNT(*) FROM system_samples WHERE gpu_util IS NULL")).toInt(), 3);
        QCOMPARE(reader->events(a).size(), 0); // outside the event budget
        const QByteArray csv = systemSamplesCsv(samples);
        QVERIFY2(csv.startsWith("attempt,rank,t,cpu_util,host_rss,gpu_util,gpu_power_w,gpu_temp_c,gpu_sm_clock_mhz\n"), csv.constData());
        QVERIFY2(csv.contains("\n0,1,1700000001.000,12.25,314572800,,,,\n"), csv.constData());

        store->deleteRun({a});
        SB_VERIFY_OK(store->flush());
        QCOMPARE(scalar(path, QStringLiteral("SELECT COUNT(*) FROM system_samples WHERE run_id = %1").arg(a)).toInt(), 0);
        QCOMPARE(reader->systemSamples(b).size(), 1);
    }

    void writesAndReadsBack()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sub/folder/runs.sqlite")); // folders are created
        auto [store, id, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-1"), QStringLiteral("first")));
        QVERIFY2(store, qPrintable(error));
        QVERIFY(id > 0);
        RunUpdate u;
        u.runId = id;
        u.status = RunStatus::Failed;
        u.startedAt = 1700000001.0;
        u.endedAt = 1700000061.0;
        u.reason = QStringLiteral("rank 3 on node-b was killed by signal 9 (SIGKILL)");
        u.reasonCode = QStringLiteral("exit.killed");
        u.reasonArgs = {QStringLiteral("3"), QStringLiteral("node-b"), QStringLiteral("9"), QStringLiteral("SIGKILL")};
        u.failingRank = 3;
        u.failingHost = QStringLiteral("node-b");
        u.stepsDone = 2;
        u.finalLoss = 5.5;
        u.malformedLines = 7;
        store->updateRun(u);
        for (int rank = 0; rank < 4; ++rank)
            for (int step = 1; step <= 2; ++step) {
                MetricRow row = metric(id, rank, step, 0, 6.0 - step);
                if (step == 2) { // the validation loss, taken on step 2 only
                    row.m.evalLoss = 4.25;
                    row.m.evalPerplexity = 70.1;
                }
                store->addStepMetrics(row);
            }
        store->recordAttempt({id, 0, 1700000001.0, 1700000061.0, QStringLiteral("failed"), u.reason.value(), u.reasonCode, u.reasonArgs, 3,
                              QString()});
        store->addEvent({id, 0, 2, 1700000002.0, QStringLiteral("hello"), "{\"host\":\"node-b\"}"});
        store->addLog({id, 0, 1, 1700000003.0, LogStream::Stderr, QStringLiteral("[rank 1] \"quoted\" line\twith tab")});
        store->addLog({id, 0, -1, 1700000004.0, LogStream::Launcher, QStringLiteral("rank 3 was killed")});
        CheckpointRecord ck;
        ck.runId = id;
        ck.rank = 0;
        ck.step = 2;
        ck.path = QStringLiteral("/ck/step-000002");
        ck.host = QStringLiteral("node-a");
        ck.worldSize = 4;
        ck.bytes = 123456;
        ck.checksum = QStringLiteral("sha256:abc");
        ck.kind = QStringLiteral("sharded");
        ck.status = QStringLiteral("complete");
        ck.ms = 12.5;
        ck.t = 1700000005.0;
        store->addCheckpoint(ck);
        store->upsertHost({QStringLiteral("node-b"), QStringLiteral("127.0.0.3"), QStringLiteral("root"), 2222, 2,
                           QStringLiteral("ssh-ed25519 SHA256:xyz"), 1700000006.0});
        SB_VERIFY_OK(store->flush());
        QCOMPARE(store->stats().failedRows, 0);

        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const auto run = reader->run(id);
        QVERIFY(run.has_value());
        QCOMPARE(run->uid, QStringLiteral("uid-1"));
        QCOMPARE(run->name, QStringLiteral("first"));
        QCOMPARE(run->backend, QStringLiteral("ssh"));
        QCOMPARE(run->hosts, (QStringList{QStringLiteral("node-a slots=2"), QStringLiteral("node-b slots=2")}));
        QCOMPARE(run->worldSize, 4);
        QCOMPARE(run->status, QStringLiteral("failed"));
        QCOMPARE(run->reason, u.reason.value());
        QCOMPARE(run->reasonCode, u.reasonCode);
        QCOMPARE(run->reasonArgs, u.reasonArgs);
        QCOMPARE(run->failingRank, 3);
        QCOMPARE(run->failingHost, QStringLiteral("node-b"));
        QCOMPARE(run->maxRestarts, 2);
        QCOMPARE(run->stepsDone, 2);
        QCOMPARE(run->finalLoss, 5.5);
        QCOMPARE(run->malformedLines, 7);
        QCOMPARE(run->startedAt, 1700000001.0);
        QCOMPARE(run->planJson, QStringLiteral("{\"format\":\"shardbench-plan\"}"));

        const MetricSeries loss = reader->series(id, Metric::Loss);
        QCOMPARE(loss.size(), 8);
        QCOMPARE(loss.ranks[0], 0);
        QCOMPARE(loss.steps[1], 2);
        QCOMPARE(loss.values[1], 4.0);
        QList<MetricRow> rows;
        QVERIFY(reader->forEachStepRow(id, 3, [&](const MetricRow& r) { rows << r; }));
        QCOMPARE(rows.size(), 2);
        const MetricRow want = metric(id, 3, 2, 0, 4.0);
        const auto& m = rows[1].m;
        QCOMPARE(m.step, 2);
        QCOMPARE(m.t, want.m.t);
        QCOMPARE(m.lr, want.m.lr);
        QCOMPARE(m.gradNorm, want.m.gradNorm);
        QCOMPARE(m.tokens, want.m.tokens);
        QCOMPARE(m.tokensPerS, want.m.tokensPerS);
        QCOMPARE(m.stepMs, want.m.stepMs);
        QCOMPARE(m.forwardMs, want.m.forwardMs);
        QCOMPARE(m.backwardMs, want.m.backwardMs);
        QCOMPARE(m.optimizerMs, want.m.optimizerMs);
        QCOMPARE(m.commExposedMs, want.m.commExposedMs);
        QCOMPARE(m.memCurrent, want.m.memCurrent);
        QCOMPARE(m.memPeak, want.m.memPeak);
        QCOMPARE(m.memReserved, want.m.memReserved);
        QCOMPARE(m.deviceMemUsed, -1);
        QCOMPARE(m.evalLoss, 4.25);
        QCOMPARE(m.evalPerplexity, 70.1);
        QVERIFY(std::isnan(rows[0].m.evalLoss) && std::isnan(rows[0].m.evalPerplexity)); // NULL, not 0
        QCOMPARE(reader->rankSummaries(id).size(), 4);
        QCOMPARE(reader->rankSummaries(id)[3].peakMem, 2003);

        QCOMPARE(reader->attempts(id).size(), 1);
        QCOMPARE(reader->attempts(id)[0].failingRank, 3);
        QCOMPARE(reader->attempts(id)[0].reasonCode, u.reasonCode);
        QCOMPARE(reader->attempts(id)[0].reasonArgs, u.reasonArgs);
        QCOMPARE(reader->events(id).size(), 1);
        QCOMPARE(reader->events(id)[0].rank, 2);
        const auto logs = reader->logs(id);
        QCOMPARE(logs.size(), 2);
        QCOMPARE(logs[0].line, QStringLiteral("[rank 1] \"quoted\" line\twith tab"));
        QCOMPARE(logs[1].rank, -1);
        QCOMPARE(logs[1].stream, LogStream::Launcher);
        QCOMPARE(reader->logs(id, 1).size(), 1);
        QCOMPARE(reader->logs(id, -1).size(), 1);
        const auto cks = reader->checkpoints(id);
        QCOMPARE(cks.size(), 1);
        QCOMPARE(cks[0].checksum, QStringLiteral("sha256:abc"));
        QCOMPARE(cks[0].bytes, 123456);
        QCOMPARE(cks[0].worldSize, 4);
        QCOMPARE(reader->hosts().size(), 1);
        QCOMPARE(reader->hosts()[0].port, 2222);
        QCOMPARE(reader->hosts()[0].keyFingerprint, QStringLiteral("ssh-ed25519 SHA256:xyz"));
    }

    void keepsTheLatestAttemptOfAStep()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("runs.sqlite"));
        auto [store, id, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-2")));
        QVERIFY2(store, qPrintable(error));
        for (int step = 1; step <= 15; ++step) store->addStepMetrics(metric(id, 0, step, 0, 100 + step));
        for (int step = 11; step <= 20; ++step) store->addStepMetrics(metric(id, 0, step, 1, 200 + step)); // resumed at 10
        QVERIFY(store->flush());
        auto reader = RunReader::open(path).valueOr(nullptr);
        const MetricSeries s = reader->series(id, Metric::Loss, 0);
        QCOMPARE(s.size(), 20);
        QCOMPARE(s.values[9], 110.0);
        QCOMPARE(s.values[10], 211.0);
        QCOMPARE(s.values[14], 215.0);
        QCOMPARE(reader->series(id, Metric::Loss, 0, false).size(), 25);
    }

    void findsRunsByIdUidPrefixAndName()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("runs.sqlite"));
        auto [store, a, error] = storeWithRun(path, sampleRun(QStringLiteral("20250101-aaaa"), QStringLiteral("alpha")));
        QVERIFY2(store, qPrintable(error));
        const qint64 b = store->createRun(sampleRun(QStringLiteral("20250101-abbb"), QStringLiteral("alpha"))).value();
        const qint64 c = store->createRun(sampleRun(QStringLiteral("20250202-cccc"), QStringLiteral("50% _odd_"))).value();
        QVERIFY(store->flush());
        QVERIFY(!store->createRun(sampleRun(QStringLiteral("20250101-aaaa")))); // uid is unique
        auto reader = RunReader::open(path).valueOr(nullptr);
        QCOMPARE(reader->findRun(QString::number(a))->id, a);
        QCOMPARE(reader->findRun(QStringLiteral("20250101-abbb"))->id, b);
        QCOMPARE(reader->findRun(QStringLiteral("20250202"))->id, c);
        QCOMPARE(reader->findRun(QStringLiteral("alpha"))->id, b); // the newest of that name
        QCOMPARE(reader->findRun(QStringLiteral("50% _odd_"))->id, c);
        QVERIFY(!reader->findRun(QStringLiteral("20250101-a")));
        QVERIFY(reader->lastError().contains(QLatin1String("several")));
        QVERIFY(!reader->findRun(QStringLiteral("2025%")));
        QVERIFY(!reader->findRun(QStringLiteral("nothing")));
        QVERIFY(reader->lastError().contains(QLatin1String("no run")));
        QCOMPARE(reader->listRuns().size(), 3);
        QCOMPARE(reader->listRuns(2).size(), 2);
        QCOMPARE(reader->listRuns().front().id, c);
    }

    void survivesAWriterKilledMidIngest()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("crash.sqlite"));
        QProcess child;
        child.start(QStringLiteral(SB_STORE_WRITER_CHILD), {path});
        QVERIFY(child.waitForStarted());
        int committed = 0;
        qint64 runId = -1;
        QByteArray pending;
        QElapsedTimer t;
        t.start();
        // Kill it at an arbitrary point while it keeps writing.
        while (committed < 6000 && t.elapsed() < 60000) {
            child.waitForReadyRead(1000);
            pending += child.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                if (line.startsWith("run ")) runId = line.mid(4).toLongLong();
                if (line.startsWith("committed ")) committed = line.mid(10).toInt();
            }
            QVERIFY2(child.state() == QProcess::Running, child.readAllStandardError().constData());
        }
        QVERIFY(committed >= 6000);
        sb::test::signalProcess(child.processId(), SIGKILL);
        QVERIFY(child.waitForFinished(5000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        QCOMPARE(scalar(path, QStringLiteral("PRAGMA integrity_check")).toString(), QStringLiteral("ok"));
        const qint64 rows = scalar(path, QStringLiteral("SELECT COUNT(*) FROM step_metrics WHERE run_id = %1").arg(runId)).toLongLong();
        const qint64 upToCommitted = scalar(path, QStringLiteral("SELECT COUNT(*) FROM step_metrics WHERE run_id = %1 AND step <= %2")
                                                      .arg(runId)
                                                      .arg(committed))
                                         .toLongLong();
        QCOMPARE(upToCommitted, 4LL * committed); // every committed row is there
        QVERIFY(rows >= upToCommitted);
        // What got in beyond that is a prefix of the write order: no holes.
        const qint64 maxStep = scalar(path, QStringLiteral("SELECT MAX(step) FROM step_metrics WHERE run_id = %1").arg(runId)).toLongLong();
        QVERIFY(maxStep <= (rows + 3) / 4);
        // And the store opens and accepts writes again.
        auto storeOpened = SqliteRunStore::open(path);
        QVERIFY2(storeOpened, storeOpened.error().c_str());
        auto store = std::move(storeOpened).value();
        store->addStepMetrics(metric(runId, 0, 1000000, 0, 1.0));
        QVERIFY(store->flush());
    }

    void readersSeeCommittedRowsWhileTheWriterWrites()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("wal.sqlite"));
        auto [store, id, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-wal")));
        QVERIFY2(store, qPrintable(error));
        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        qsizetype last = 0;
        for (int batch = 0; batch < 20; ++batch) {
            for (int step = 1; step <= 500; ++step) store->addStepMetrics(metric(id, 0, batch * 500 + step, 0, 1.0));
            const qsizetype seen = reader->series(id, Metric::Loss).size();
            QVERIFY(seen >= last);
            QVERIFY(reader->lastError().isEmpty());
            last = seen;
        }
        QVERIFY(store->flush());
        QCOMPARE(reader->series(id, Metric::Loss).size(), 10000);
    }

    void storesBlankLines()
    {
        // A rank's empty line is a line: stored as "", never a NOT NULL failure.
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("blank.sqlite"));
        auto [store, id, error] = storeWithRun(path, sampleRun(QStringLiteral("uid-blank")));
        QVERIFY2(store, qPrintable(error));
        QVERIFY(id > 0);
        int n = 0;
        for (const QString& line : {QString(), QString::fromUtf8(QByteArray("")), QStringLiteral("after")}) {
            LogRecord l;
            l.runId = id;
            l.rank = 0;
            l.t = 1700000000.0 + n++;
            l.stream = LogStream::Stdout;
            l.line = line;
            store->addLog(l);
        }
        SB_VERIFY_OK(store->flush());
        store.reset();
        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const QList<LogRecord> logs = reader->logs(id, 0);
        QCOMPARE(logs.size(), 3);
        QCOMPARE(logs[0].line, QString());
        QCOMPARE(logs[1].line, QString());
        QCOMPARE(logs[2].line, QStringLiteral("after"));
    }

    void marksRunsOfAVanishedLauncherFailed()
    {
        // A launcher on this machine that is gone: a finished process's pid.
        QProcess probe;
        probe.start(QStringLiteral("true"));
        QVERIFY(probe.waitForStarted());
        const qint64 pid = probe.processId();
        QVERIFY(probe.waitForFinished(5000));
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("abandoned.sqlite"));
        auto storeOpened = SqliteRunStore::open(path);
        QVERIFY2(storeOpened, storeOpened.error().c_str());
        auto store = std::move(storeOpened).value();
        auto make = [&](const QString& uid, bool detached) {
            NewRun r = sampleRun(uid);
            r.launcherHost = QSysInfo::machineHostName();
            r.launcherPid = pid;
            if (detached) r.runDir = QStringLiteral("/tmp/somewhere/") + uid;
            const qint64 id = store->createRun(r).value();
            RunUpdate u;
            u.runId = id;
            u.status = RunStatus::Running;
            u.startedAt = 1700000001.0;
            store->updateRun(u);
            return id;
        };
        const qint64 lost = make(QStringLiteral("uid-lost"), false);
        const qint64 detached = make(QStringLiteral("uid-detached"), true);
        const qint64 live = store->createRun([] {
            NewRun r = sampleRun(QStringLiteral("uid-live"));
            r.launcherHost = QSysInfo::machineHostName();
            r.launcherPid = QCoreApplication::applicationPid();
            return r;
        }()).value();
        store->addStepMetrics(metric(lost, 0, 1, 0, 2.0)); // t 1700000001
        EventRecord e;
        e.runId = lost;
        e.rank = 0;
        e.t = 1700000050.25;
        e.type = QStringLiteral("hello");
        e.json = "{}";
        store->addEvent(e);
        LogRecord l;
        l.runId = lost;
        l.rank = 1;
        l.t = 1700000020.0;
        l.line = QStringLiteral("a line");
        store->addLog(l);
        QVERIFY(store->flush());
        store.reset();

        QCOMPARE(sb::launch::reconcileAbandonedRuns(path).value(), 1);
        auto readerOpened = RunReader::open(path);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const auto row = reader->run(lost);
        QCOMPARE(row->status, QStringLiteral("failed"));
        QVERIFY(!row->isAbandoned());
        const QString when = QDateTime::fromMSecsSinceEpoch(1700000050250).toString(Qt::ISODate);
        QCOMPARE(row->reason, QStringLiteral("the launcher (pid %1 on %2) is gone; last heard from at %3")
                                  .arg(pid)
                                  .arg(QSysInfo::machineHostName(), when));
        QCOMPARE(row->reasonCode, QStringLiteral("run.launcher_gone"));
        QCOMPARE(row->reasonArgs, (QStringList{QString::number(pid), QSysInfo::machineHostName(), when}));
        QCOMPARE(row->endedAt, 1700000050.25);
        QCOMPARE(reader->run(detached)->status, QStringLiteral("running")); // attach decides its fate
        QCOMPARE(reader->run(live)->status, QStringLiteral("starting"));    // its launcher is this test
        QCOMPARE(sb::launch::reconcileAbandonedRuns(path).value(), 0);
    }

    void storesNoSecrets()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("s.sqlite"));
        SB_VERIFY_OK(SqliteRunStore::open(path));
        QSqlDatabase db; // no other copy may outlive closeStoreConnection
        {
            const sb::Result<QSqlDatabase> connected = openStoreConnection(path, OpenOptions{});
            SB_VERIFY_OK(connected);
            db = connected.value();
        }
        QStringList columns;
        {
            QSqlQuery tables(db);
            QVERIFY(tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")));
            QStringList names;
            while (tables.next()) names << tables.value(0).toString();
            for (const QString& t : names) {
                QSqlQuery q(db);
                QVERIFY(q.exec(QStringLiteral("PRAGMA table_info(%1)").arg(t)));
                while (q.next()) columns << t + QLatin1Char('.') + q.value(1).toString();
            }
        }
        closeStoreConnection(db);
        QVERIFY(columns.size() > 50);
        for (const QString& c : columns)
            for (const char* word : {"password", "passphrase", "secret", "private", "identity"})
                QVERIFY2(!c.contains(QLatin1String(word), Qt::CaseInsensitive), qPrintable(c));
    }
};

QTEST_GUILESS_MAIN(LauncherStore)
#include "tst_launcher_store.moc"
