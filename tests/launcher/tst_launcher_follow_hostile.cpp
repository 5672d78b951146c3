// A hostile run directory, followed: links out of it and special files are
// refused and never block, no file's content poses as a protocol record,
// newer versions are refused or counted, a silent or dead supervisor is said
// (docs/robustness.md#the-run-directory-of-a-detached-run). Run directories
// are written here in the supervisor's layout: no training core.
#include "follow_fixtures.hpp"
#include "../run_store_fixture.hpp"
#include "../status_checks.hpp"
#include "../safe_signal.hpp"

#include <csignal>

using namespace sb;
using namespace sb::test;
using namespace sb::store::test;

class LauncherFollowHostile : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase() { QCOMPARE(followToolsReady(), QString()); }

    // Links out of the run directory are not followed: a rank's events file,
    // supervisor.log and an attempt folder that are links to files elsewhere
    // are not streamed, and each is said (and recorded once in the run's log).
    void linksOutOfTheRunDirectoryAreNotFollowed()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("links")), 2);
        run.start(2);
        run.finish();
        const QString outside = tmp_.filePath(QStringLiteral("outside"));
        QDir().mkpath(outside + QStringLiteral("/attempt"));
        writeFile(outside + QStringLiteral("/secret.events"), stepLine(1, 99) + eventLine(1, "error", ",\"message\":\"secret event\""));
        writeFile(outside + QStringLiteral("/secret.log"), "{\"t\":1700000000,\"l\":\"secret supervisor line\"}\n");
        writeFile(outside + QStringLiteral("/attempt/rank-0.events"), stepLine(0, 77));
        makeLink(run, FakeRun::events(0, 1), outside + QStringLiteral("/secret.events"));
        makeLink(run, QStringLiteral("supervisor.log"), outside + QStringLiteral("/secret.log"));
        makeLink(run, QStringLiteral("attempt-1"), outside + QStringLiteral("/attempt"));
        const QString db = tmp_.filePath(QStringLiteral("links.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(id > 0);
        for (int pass = 0; pass < 2; ++pass) {
            const CliResult a = attachOnce(db, id);
            QVERIFY2(a.code == 0 && a.out.contains(QLatin1String("completed")), qPrintable(describe(a)));
            for (const char* name : {"attempt-0/rank-1.events", "supervisor.log", "attempt-1"})
                QVERIFY2(a.err.contains(QStringLiteral("%1 in the run directory was not read: a symbolic link").arg(QLatin1String(name))),
                         qPrintable(describe(a)));
        }
        const Stored s = stored(db, id);
        QCOMPARE(s.stepsOfRank.value(0), 2); // attempt 1's steps are not read through its link
        QCOMPARE(s.stepsOfRank.value(1), 0);
        QString error;
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        for (const store::LogRecord& l : reader->logs(id, -2)) QVERIFY2(!l.line.contains(QLatin1String("secret")), qPrintable(l.line));
        for (const store::EventRecord& e : reader->events(id)) QVERIFY2(!e.json.contains("secret"), e.json.constData());
        QCOMPARE(launcherLines(db, id).filter(QStringLiteral("was not read")).size(), 3); // once, though attached twice
    }

    // Special files never hang a client: a FIFO for supervisor.lock makes
    // attach (following or not) and runs --refresh say so at once (and the
    // refresh goes on with the other runs); a FIFO for a rank's file or for
    // state.json is refused with a message and the rest is stored.
    void specialFilesNeverHang()
    {
        FakeRun locked(tmp_.filePath(QStringLiteral("fifo-lock")), 2);
        locked.start(2);
        locked.unlock();
        makeFifo(locked, QStringLiteral("supervisor.lock"));
        FakeRun fine(tmp_.filePath(QStringLiteral("fifo-fine")), 2);
        fine.start(2);
        fine.finish();
        const QString db = tmp_.filePath(QStringLiteral("fifo.sqlite"));
        const qint64 a = createRun(db, locked), b = createRun(db, fine);
        QVERIFY(a > 0 && b > 0);
        for (const QStringList& mode : {QStringList{QStringLiteral("--no-follow")}, QStringList{}}) {
            QElapsedTimer t;
            t.start();
            const CliResult r = runCli(QStringList{QStringLiteral("attach"), QString::number(a), QStringLiteral("--db"), db} + mode, 20000);
            QVERIFY2(r.code == 1 && r.err.contains(QLatin1String("supervisor.lock is a FIFO, not a regular file")), qPrintable(describe(r)));
            QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        }
        const CliResult runs = runCli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--refresh")}, 20000);
        QVERIFY2(runs.err.contains(QLatin1String("supervisor.lock is a FIFO")), qPrintable(describe(runs)));
        QCOMPARE(countStore(db, b).status, QStringLiteral("completed"));
        QByteArray out;
        const QString sup = binDir() + QStringLiteral("/shardbench-supervise");
        QCOMPARE(runProgram(sup, {QStringLiteral("status"), locked.dir()}, &out, 10000), 0);
        QVERIFY2(out.contains("\"alive\":false"), out.constData());

        FakeRun ranks(tmp_.filePath(QStringLiteral("fifo-rank")), 2);
        ranks.start(2);
        ranks.finish();
        makeFifo(ranks, FakeRun::events(0, 1));
        makeFifo(ranks, FakeRun::log(0, 0));
        const qint64 c = createRun(db, ranks);
        const CliResult r = attachOnce(db, c, {}, 20000);
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("completed")), qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QLatin1String("attempt-0/rank-1.events in the run directory was not read: a FIFO")), qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QLatin1String("attempt-0/rank-0.log in the run directory was not read: a FIFO")), qPrintable(describe(r)));
        QCOMPARE(stored(db, c).stepsOfRank.value(0), 2);

        makeFifo(ranks, QStringLiteral("state.json"));
        const CliResult st = attachOnce(db, createRun(db, ranks), {}, 20000);
        QVERIFY2(st.err.contains(QLatin1String("state.json in the run directory was not read: a FIFO")), qPrintable(describe(st)));
    }

    void prettyStateIsFramed_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::newRow("wire 1") << QStringLiteral("1");
        QTest::newRow("wire 2") << QStringLiteral("2");
    }

    // A pretty-printed (valid) state.json reaches the client as one record:
    // the run is recorded completed, and a line of it shaped like a record
    // moves no stored offset.
    void prettyStateIsFramed()
    {
        QFETCH(QString, wire);
        FakeRun run(tmp_.filePath(QStringLiteral("pretty-") + wire), 2);
        run.start(3);
        run.finish();
        run.setStateText("{\n  \"version\": 1,\n  \"run_id\": \"fake\",\n  \"status\": \"completed\",\n  \"attempt\": 0,\n"
                         "  \"world_size\": 2,\n  \"supervisor\": {\"pid\": 1, \"host\": \"here\"},\n  \"updated_at\": 1700000000,\n"
                         "  \"steps_done\": 3,\n  \"notes\": [\n"
                         "{\"k\":\"l\",\"f\":\"attempt-0/rank-1.events\",\"o\":0,\"n\":999999999,\"d\":\"{}\"}\n  ]\n}\n");
        const QString db = tmp_.filePath(QStringLiteral("pretty-%1.sqlite").arg(wire));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id, {QStringLiteral("--wire"), wire});
        QVERIFY2(a.code == 0 && a.out.contains(QLatin1String("completed, 3 steps")), qPrintable(describe(a)));
        expectAllOnce(db, id, run, {0});
        QString error;
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(reader->ingestOffsets(id).value(FakeRun::events(0, r)), QFileInfo(run.dir() + QLatin1Char('/') + FakeRun::events(0, r)).size());
    }

    // The client takes no line record on trust: one whose offset does not
    // continue what is stored (a gap, an overlap) or that spans more than its
    // text moves no offset and stores nothing; a file outside the layout is refused.
    void lineRecordsMustContinueTheStoredOffset()
    {
        auto [store, id, error] =
            storeWithRun(tmp_.filePath(QStringLiteral("offsets.sqlite")), bareRun(QStringLiteral("offsets"), QStringLiteral("local"), 2));
        QVERIFY2(store, qPrintable(error));
        const QString file = QStringLiteral("attempt-0/rank-1.events");
        launch::RunIngestor in(*store, id, {{file, 100}}, {});
        const QByteArray line = stepLine(1, 5).trimmed();
        const QByteArray next = QByteArray::number(100 + line.size() + 1);
        in.take(QByteArray(R"({"k":"l","f":"attempt-0/rank-1.events","o":100,"n":999999999,"d":"{}"})"));
        in.take(QByteArray("L attempt-0/rank-1.events 100 999999999 " + line));         // longer than its line
        in.take(QByteArray("L attempt-0/rank-1.events 400 " + QByteArray::number(400 + line.size() + 1) + ' ' + line)); // a gap
        in.take(QByteArray("L attempt-0/rank-1.events 60 " + QByteArray::number(60 + line.size() + 1) + ' ' + line)); // an overlap
        in.take(QByteArray("L ../../etc/passwd 0 10 123456789"));
        QCOMPARE(in.offsets().value(file), 100);
        QVERIFY(!in.offsets().contains(QStringLiteral("../../etc/passwd")));
        QCOMPARE(in.malformed(), 5);
        in.take(QByteArray("L attempt-0/rank-1.events 100 " + next + ' ' + line));
        QCOMPARE(in.offsets().value(file), next.toLongLong());
        SB_VERIFY_OK(store->flush());
        auto reader = store::RunReader::open(tmp_.filePath(QStringLiteral("offsets.sqlite"))).valueOr(nullptr);
        int steps = 0;
        reader->forEachStepRow(id, -1, [&](const store::MetricRow&) { ++steps; });
        QCOMPARE(steps, 1);
    }

    // A state.json of a newer version than this build reads is refused with
    // a message naming the file and the versions: by the follower, and by the
    // client (an older follower passes any state on).
    void newerStateIsRefused()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("newer-state")), 1);
        run.start(2);
        run.finish();
        run.setStateText(R"({"version":2,"run_id":"fake","status":"completed","attempt":0,"world_size":1,"updated_at":1700000000})");
        const QString db = tmp_.filePath(QStringLiteral("newer-state.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        QVERIFY2(a.code == 1 && a.err.contains(run.dir() + QStringLiteral("/state.json is version 2")) && a.err.contains(QLatin1String("version 1")),
                 qPrintable(describe(a)));
        QCOMPARE(countStore(db, id).status, QStringLiteral("starting"));

        QString error;
        auto store = store::SqliteRunStore::open(db).valueOr(nullptr);
        launch::RunIngestor in(*store, id, {}, {});
        in.take(QByteArray(R"({"k":"state","alive":false,"state":{"version":3,"status":"completed"}})"));
        QVERIFY2(in.followerError().contains(QLatin1String("state.json is version 3")), qPrintable(in.followerError()));
        QCOMPARE(in.status(), store::RunStatus::Starting);
    }

    // Events of a newer protocol version are not dropped in silence: counted,
    // said by attach, and each recorded in the run's log.
    void newerEventsAreCountedAndSaid()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("newer-events")), 2);
        run.start(2);
        run.append(FakeRun::events(0, 1), "{\"type\":\"step\",\"v\":2,\"rank\":1,\"t\":1700000010,\"step\":3,\"loss\":1}\n");
        run.append(FakeRun::events(0, 1), "{\"type\":\"gauge\",\"v\":2,\"rank\":1,\"t\":1700000011}\n");
        run.finish();
        const QString db = tmp_.filePath(QStringLiteral("newer-events.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        QVERIFY2(a.code == 0 && a.err.contains(QLatin1String("2 event line(s) of a newer protocol version were not read")), qPrintable(describe(a)));
        QCOMPARE(launcherLines(db, id).filter(QStringLiteral("an event of protocol version 2 was not read")).size(), 2);
        QString error;
        QCOMPARE(store::RunReader::open(db).valueOr(nullptr)->run(id)->malformedLines, 2);
    }

    // A supervisor that holds its lock but has not rewritten its state for
    // three of its refresh periods (stopped with SIGSTOP) is said to be silent,
    // and heard from again once it writes.
    void silentSupervisorIsSaid()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("silent")), 1);
        run.start(1);
        const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        run.setState("running", ",\"refresh_s\":1", now - 60);
        const QString db = tmp_.filePath(QStringLiteral("silent.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult once = attachOnce(db, id);
        QVERIFY2(once.err.contains(QLatin1String("the supervisor has not been heard from for 6")), qPrintable(describe(once)));

        QProcess cli;
        dieWithParent(cli, SIGKILL);
        cli.start(cliPath(), {QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db});
        QByteArray err;
        QVERIFY2(readStderrUntil(cli, &err, "has not been heard from for", 10000), err.constData());
        run.setState("running", ",\"refresh_s\":1", QDateTime::currentMSecsSinceEpoch() / 1000.0);
        QVERIFY2(readStderrUntil(cli, &err, "the supervisor is heard from again", 10000), err.constData());
        run.finish();
        QVERIFY(cli.waitForFinished(15000));
    }

    // The real supervisor rewrites its state while nothing changes, so a
    // client says when it is stopped (SIGSTOP) though it holds its lock.
    void stoppedSupervisorIsSaid()
    {
        const QString dir = tmp_.filePath(QStringLiteral("stopped"));
        QDir().mkpath(dir);
        writeFile(dir + QStringLiteral("/spec.json"),
                  R"({"version":1,"run_id":"stopped","world_size":1,"program":"/bin/sleep","args":["120"],)"
                  R"("hosts":[{"name":""}],"ranks":[{"host":0}]})");
        const QString sup = binDir() + QStringLiteral("/shardbench-supervise");
        QByteArray out;
        QCOMPARE(runProgram(sup, {QStringLiteral("start"), dir}, &out), 0);
        QVERIFY2(out.startsWith("started "), out.constData());
        const pid_t pid = static_cast<pid_t>(out.mid(8).trimmed().toLongLong());
        QVERIFY(pid > 1);
        struct Resume {
            pid_t pid;
            ~Resume() { ::kill(pid, SIGCONT); ::kill(pid, SIGTERM); }
        } resume{pid};
        QVERIFY(waitFor([&] { return statusOf(dir) == QLatin1String("running"); }, 10000));
        const double first = stateOf(dir).value(QStringLiteral("updated_at")).toDouble();
        QCOMPARE(stateOf(dir).value(QStringLiteral("refresh_s")).toDouble(), 5.0);
        QVERIFY2(waitFor([&] { return stateOf(dir).value(QStringLiteral("updated_at")).toDouble() > first + 4; }, 10000),
                 "the supervisor did not rewrite its state");

        FakeRun run(dir, 1); // only for its record
        const QString db = tmp_.filePath(QStringLiteral("stopped.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(::kill(pid, SIGSTOP) == 0);
        QProcess cli;
        dieWithParent(cli, SIGKILL);
        cli.start(cliPath(), {QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db});
        QByteArray err;
        QVERIFY2(readStderrUntil(cli, &err, "the supervisor has not been heard from for", 25000), err.constData());
        QVERIFY(::kill(pid, SIGCONT) == 0);
        QVERIFY2(readStderrUntil(cli, &err, "the supervisor is heard from again", 10000), err.constData());
        QCOMPARE(runProgram(sup, {QStringLiteral("stop"), dir}), 0);
        QVERIFY(cli.waitForFinished(15000));
        QCOMPARE(cli.exitCode(), 130);
    }

    // A supervisor found gone is judged by the newest of its last state and
    // the last lines seen: steps done and "last heard from" are not its last
    // state write's, which lags.
    void deadSupervisorIsJudgedByItsLastLines()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("dead")), 2);
        run.start(5);
        run.setState("running", ",\"steps_done\":2");
        run.unlock();
        const QString db = tmp_.filePath(QStringLiteral("dead.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        const QString when = QDateTime::fromMSecsSinceEpoch(qint64(1700000005) * 1000).toString(Qt::ISODate);
        QVERIFY2(a.code == 1 && a.out.contains(QStringLiteral("failed: the supervisor on here is gone (last heard from at %1), 5 steps").arg(when)),
                 qPrintable(describe(a)));
        QString error;
        QCOMPARE(store::RunReader::open(db).valueOr(nullptr)->run(id)->stepsDone, 5);
    }

    // A run that never wrote a state keeps the reason it was recorded with
    // (a failed launch's), and one not recorded as ended is failed with a
    // reason that names no empty host and no time of 1970.
    void runWithoutStateKeepsItsReason()
    {
        const QString dir = tmp_.filePath(QStringLiteral("no-state"));
        QDir().mkpath(dir + QStringLiteral("/attempt-0"));
        FakeRun run(dir, 1); // its directory only: the supervisor never started
        const QString db = tmp_.filePath(QStringLiteral("no-state.sqlite"));
        const qint64 failed = createRun(db, run), starting = createRun(db, run);
        {
            QString error;
            auto store = store::SqliteRunStore::open(db).valueOr(nullptr);
            store::RunUpdate u;
            u.runId = failed;
            u.status = store::RunStatus::Failed;
            u.reason = QStringLiteral("launch failed: cannot run shardbench-supervise: No such file or directory");
            u.reasonCode = QStringLiteral("launch.failed");
            u.reasonArgs = {QStringLiteral("cannot run shardbench-supervise: No such file or directory")};
            store->updateRun(u);
            QVERIFY(store->flush());
        }
        const CliResult a = attachOnce(db, failed);
        QVERIFY2(a.out.contains(QLatin1String("failed: launch failed: cannot run shardbench-supervise: No such file or directory")),
                 qPrintable(describe(a)));
        QCOMPARE(countStore(db, failed).reason, QStringLiteral("launch failed: cannot run shardbench-supervise: No such file or directory"));
        const CliResult b = attachOnce(db, starting);
        QVERIFY2(b.code == 1 && b.out.contains(QStringLiteral("failed: the run could not start: no supervisor runs on %1").arg(QSysInfo::machineHostName())),
                 qPrintable(describe(b)));
        QVERIFY2(!b.out.contains(QLatin1String("1970")) && !b.out.contains(QLatin1String(" on  ")), qPrintable(describe(b)));
    }
};

QTEST_MAIN(LauncherFollowHostile)
#include "tst_launcher_follow_hostile.moc"
