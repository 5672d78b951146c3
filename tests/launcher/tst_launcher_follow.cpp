// Following a detached run with a bounded stream (docs/launcher.md#attaching):
// while live, rank 0's events and log, the supervisor's log and every rank's
// essential events; the other ranks' steps and logs at catch-up or on demand.
// Run directories are written here in the supervisor's layout (this process
// holds supervisor.lock while "the supervisor lives"): no training core.
// - liveSendsRankZeroAndEssentials: live, the follower sends rank 0's new steps
//   and the other ranks' errors and checkpoints (also of a new attempt folder)
//   and none of their steps, with inotify and with rescans only; once the
//   supervisor is gone the catch-up sends the rest in order.
// - attachStoresLiveThenCatchesUpOnce: an attached client stores rank 0 live
//   and every line once in the end, its offsets never past a skipped line.
// - killedWhileLiveThenAttachedLosesNothing: a CLI killed with SIGKILL while
//   live loses nothing at the next attach, also with the offsets deleted.
// - rankLogsOnDemand: a rank's log on demand, stored once however often asked.
// - badInputIsExplained: bad rank sets (--logs, --live-steps) and an unknown
//   --wire are refused, exit 2.
#include "follow_fixtures.hpp"
#include "../run_store_fixture.hpp"
#include "../status_checks.hpp"
#include "../safe_signal.hpp"

using namespace sb;
using namespace sb::test;
using namespace sb::store::test;


class LauncherFollow : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase() { QCOMPARE(followToolsReady(), QString()); }

    void liveSendsRankZeroAndEssentials_data()
    {
        QTest::addColumn<bool>("inotify");
        QTest::newRow("inotify") << true;
        QTest::newRow("rescanning") << false;
    }

    // The follower while live: rank 0's new steps as they come, the other
    // ranks' errors and checkpoints out of order ("E"), their steps only in
    // the catch-up after the supervisor is gone, which sends them in order.
    void liveSendsRankZeroAndEssentials()
    {
        QFETCH(bool, inotify);
        FakeRun run(tmp_.filePath(inotify ? QStringLiteral("live-i") : QStringLiteral("live-r")), 4);
        run.start(2);
        FollowerOutput f;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!inotify) env.insert(QStringLiteral("SHARDBENCH_FOLLOW_NO_INOTIFY"), QStringLiteral("1"));
        f.p.setProcessEnvironment(env);
        f.p.start(binDir() + QStringLiteral("/shardbench-supervise"),
                  {QStringLiteral("follow"), run.dir(), QStringLiteral("--wire"), QStringLiteral("2"), QStringLiteral("--live-steps"),
                   QStringLiteral("rank0")});
        f.p.write("\n"); // no offsets; stdin stays open
        QVERIFY(waitFor([&] { f.p.waitForReadyRead(20); f.read(); return f.of('L', FakeRun::log(0, 0)).size() == 1; }, 10000));
        QCOMPARE(f.of('L', FakeRun::events(0, 3)).size(), 3); // the catch-up at start: hello and 2 steps
        const qsizetype liveFrom = f.records.size();

        run.steps(3, 5);
        run.append(FakeRun::events(0, 2), eventLine(2, "error", ",\"message\":\"CUDA out of memory\""));
        run.append(FakeRun::events(0, 3), eventLine(3, "checkpoint", ",\"step\":5,\"path\":\"/ck/5\",\"status\":\"complete\""));
        run.append(FakeRun::log(0, 1), "{\"t\":1700000000,\"s\":\"e\",\"l\":\"rank 1's log stays home\"}\n");
        // A restart: a new attempt folder appears while following.
        QDir().mkpath(run.dir() + QStringLiteral("/attempt-1"));
        run.append(FakeRun::events(1, 0), stepLine(0, 6));
        run.append(FakeRun::events(1, 1), stepLine(1, 6));
        QVERIFY2(waitFor([&] {
            f.p.waitForReadyRead(20);
            f.read();
            return f.of('L', FakeRun::events(0, 0), liveFrom).size() == 3 && f.of('E', FakeRun::events(0, 2), liveFrom).size() == 1 &&
                   f.of('E', FakeRun::events(0, 3), liveFrom).size() == 1 && f.of('L', FakeRun::events(1, 0), liveFrom).size() == 1;
        }, inotify ? 5000 : 15000), f.records.mid(liveFrom).join('\n').constData());
        QTest::qWait(500);
        f.read();
        for (int r = 1; r < 4; ++r) QCOMPARE(f.of('L', FakeRun::events(0, r), liveFrom).size(), 0);
        QCOMPARE(f.of('L', FakeRun::events(1, 1), liveFrom).size(), 0);
        QVERIFY(f.of('E', FakeRun::events(0, 2), liveFrom)[0].contains("CUDA out of memory"));
        QCOMPARE(f.of('L', FakeRun::log(0, 1)).size() + f.of('E', FakeRun::log(0, 1)).size(), 0); // --logs rank0

        // The supervisor is gone: the catch-up sends the rest in order, the essential lines again.
        const qsizetype endFrom = f.records.size();
        run.finish();
        QVERIFY(f.p.waitForFinished(15000));
        f.read();
        QCOMPARE(f.p.exitCode(), 0);
        QVERIFY(f.records.back().contains("\"k\":\"end\""));
        QCOMPARE(f.of('L', FakeRun::events(0, 2), endFrom).size(), 5); // steps 3-5, the error, done
        QCOMPARE(f.of('L', FakeRun::events(0, 3), endFrom).size(), 5); // steps 3-5, the checkpoint, done
        QCOMPARE(f.of('L', FakeRun::events(1, 1), endFrom).size(), 1);
    }

    // An attached client while live stores rank 0's steps and the essentials;
    // when the run ends the catch-up fills in the rest, every line once.
    void attachStoresLiveThenCatchesUpOnce()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("attach")), 3);
        run.start(3);
        const QString db = tmp_.filePath(QStringLiteral("attach.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(id > 0);
        QString error;
        auto store = store::SqliteRunStore::open(db).valueOr(nullptr);
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        QVERIFY2(store && reader, qPrintable(error));
        const Result<launch::AttachTarget> recorded = launch::AttachTarget::fromJson(reader->run(id)->attachJson);
        SB_VERIFY_OK(recorded);
        const launch::AttachTarget& target = recorded.value();
        launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject);
        launch::AttachSession session(*store, *reader->run(id), target, &policy, launch::AttachOptions{}, {}, {}, {});
        QString finished = QStringLiteral("(not finished)");
        connect(&session, &launch::AttachSession::finished, this, [&](const QString& e) { finished = e; });
        session.start();
        QVERIFY(waitFor([&] { return store->flush().ok() && stored(db, id).steps == 9; }, 10000)); // the catch-up at start

        run.steps(4, 8);
        run.append(FakeRun::events(0, 2), eventLine(2, "error", ",\"message\":\"boom\""));
        QVERIFY(waitFor([&] { return store->flush().ok() && stored(db, id).stepsOfRank.value(0) == 8 && stored(db, id).events == 4; }, 10000));
        QTest::qWait(400);
        SB_VERIFY_OK(store->flush());
        Stored live = stored(db, id);
        QCOMPARE(live.stepsOfRank.value(1), 3); // left for the catch-up
        QCOMPARE(live.stepsOfRank.value(2), 3);
        // Offsets never pass a line that was not stored.
        QCOMPARE(reader->ingestOffsets(id).value(FakeRun::events(0, 1)),
                 static_cast<qint64>(linesOf(run.dir() + QLatin1Char('/') + FakeRun::events(0, 1)).mid(0, 4).join('\n').size() + 1));

        run.finish();
        QVERIFY(waitFor([&] { return finished != QLatin1String("(not finished)"); }, 15000));
        QCOMPARE(finished, QString());
        SB_VERIFY_OK(store->flush());
        expectAllOnce(db, id, run, {0});
        QCOMPARE(session.ingestor().status(), store::RunStatus::Completed);
    }

    // The CLI killed (SIGKILL) while following live loses nothing: the next
    // attach catches up with every line once, and again with the offsets lost.
    void killedWhileLiveThenAttachedLosesNothing()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("killed")), 4);
        run.start(2);
        const QString db = tmp_.filePath(QStringLiteral("killed.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(id > 0);
        QProcess cli;
        dieWithParent(cli, SIGKILL);
        cli.start(cliPath(), {QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY(waitFor([&] { return stored(db, id).steps >= 8; }, 15000));
        for (int s = 3; s <= 12; ++s) {
            run.steps(s, s);
            if (s == 7) run.append(FakeRun::events(0, 1), eventLine(1, "checkpoint", ",\"step\":7,\"path\":\"/ck/7\",\"status\":\"complete\""));
            QTest::qWait(60);
        }
        QVERIFY(waitFor([&] { return stored(db, id).stepsOfRank.value(0) == 12; }, 10000));
        sb::test::signalProcess(cli.processId(), SIGKILL);
        QVERIFY(cli.waitForFinished(5000));
        QVERIFY(stored(db, id).stepsOfRank.value(3) < 12);
        run.steps(13, 15);
        run.finish();

        const CliResult a = runCli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")}, 60000);
        QVERIFY2(a.code == 0 && a.out.contains(QLatin1String("completed")), qPrintable(describe(a)));
        expectAllOnce(db, id, run, {0});
        QCOMPARE(runProgram(QStringLiteral("sqlite3"), {db, QStringLiteral("DELETE FROM ingest_offsets")}), 0);
        const CliResult again = runCli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")}, 60000);
        QVERIFY2(again.code == 0, qPrintable(describe(again)));
        expectAllOnce(db, id, run, {0});
    }

    // Another rank's log on demand: fetched into the store by the launcher's
    // function (what the workbench's per-rank pane calls) or by `logs --rank`,
    // once however often it is asked for.
    void rankLogsOnDemand()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("logs")), 3);
        run.start();
        run.append(FakeRun::log(0, 2), "{\"t\":1700000000,\"s\":\"o\",\"l\":\"loss went down\"}\n");
        run.steps(1, 2);
        run.finish();
        const QString db = tmp_.filePath(QStringLiteral("logs.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(id > 0);
        const CliResult a = runCli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")}, 60000);
        QVERIFY2(a.code == 0, qPrintable(describe(a)));
        QCOMPARE(stored(db, id).logsOfRank.value(2), 0);

        {
            auto store = store::SqliteRunStore::open(db).valueOr(nullptr);
            QVERIFY(store);
            launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject);
            const auto noRank = launch::openRankLogFetch(db, *store, id, 7, &policy);
            QVERIFY(!noRank);
            QVERIFY2(noRank.error().find("no rank 7") != std::string::npos, noRank.error().c_str());
            for (int pass = 0; pass < 2; ++pass) {
                auto fetched = launch::openRankLogFetch(db, *store, id, 1, &policy);
                SB_VERIFY_OK(fetched);
                const std::unique_ptr<launch::AttachSession> fetch = std::move(fetched).value();
                QStringList lines;
                QString finished = QStringLiteral("(not finished)");
                connect(&fetch->ingestor(), &launch::RunIngestor::logLine, this, [&](int, int rank, const QString& l) { if (rank == 1) lines << l; });
                connect(fetch.get(), &launch::AttachSession::finished, this, [&](const QString& e) { finished = e; });
                fetch->start();
                QVERIFY(waitFor([&] { return finished != QLatin1String("(not finished)"); }, 15000));
                QCOMPARE(finished, QString());
                QCOMPARE(lines, pass == 0 ? QStringList{QStringLiteral("rank 1 says hi")} : QStringList{});
            }
            SB_VERIFY_OK(store->flush());
        }
        const CliResult logs = runCli({QStringLiteral("logs"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--rank"), QStringLiteral("2")}, 60000);
        QVERIFY2(logs.code == 0 && logs.out.contains(QLatin1String("loss went down")), qPrintable(describe(logs)));
        const CliResult twice = runCli({QStringLiteral("logs"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--rank"), QStringLiteral("2")}, 60000);
        QCOMPARE(twice.out, logs.out);
        expectAllOnce(db, id, run, {0, 1, 2});
    }

    // Bad input is refused with a message, never followed.
    // state.json's coded reasons reach the ingestor: a failed run keeps its
    // code and restarts, a restarting run's "restarting after: ..." stays
    // English text (with its reason's code the workbench showed the bare
    // failure of a run that trains on).
    void stateReasonsAreCodedButRestartingIsText()
    {
        auto [store, id, error] =
            storeWithRun(tmp_.filePath(QStringLiteral("reasons.sqlite")), bareRun(QStringLiteral("reasons"), QStringLiteral("local"), 2));
        QVERIFY2(store, qPrintable(error));
        launch::RunIngestor in(*store, id, {}, {});
        const QByteArray killed = R"j("reason":"rank 1 on h was killed by signal 9 (SIGKILL)","reason_code":"rank.killed",)j"
                                  R"j("reason_args":["1","h","9","SIGKILL"])j";
        in.take(QByteArray(QByteArray(R"({"k":"state","alive":true,"state":{"status":"restarting","attempt":0,)") + killed + "}}"));
        QCOMPARE(in.codedReason().code, QString());
        QCOMPARE(in.codedReason().text, QStringLiteral("restarting after: rank 1 on h was killed by signal 9 (SIGKILL)"));
        in.take(QByteArray(QByteArray(R"({"k":"state","alive":true,"state":{"status":"failed","attempt":2,)") + killed + "}}"));
        QCOMPARE(in.codedReason().code, QStringLiteral("rank.killed"));
        QCOMPARE(in.codedReason().args.value(3), QStringLiteral("SIGKILL"));
        QCOMPARE(in.codedReason().restarts, 2);
    }

    void badInputIsExplained()
    {
        QByteArray out;
        const QString sup = binDir() + QStringLiteral("/shardbench-supervise");
        QCOMPARE(runProgram(sup, {QStringLiteral("follow"), tmp_.path(), QStringLiteral("--logs"), QStringLiteral("1,x")}, &out), 2);
        QVERIFY2(out.contains("--logs"), out.constData());
        QCOMPARE(runProgram(sup, {QStringLiteral("follow"), tmp_.path(), QStringLiteral("--wire"), QStringLiteral("3")}), 2);
        const CliResult r = runCli({QStringLiteral("attach"), QStringLiteral("1"), QStringLiteral("--db"), tmp_.filePath(QStringLiteral("none.sqlite")),
                                    QStringLiteral("--live-steps"), QStringLiteral("zero")}, 30000);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("--live-steps")), qPrintable(describe(r)));
    }
};

QTEST_MAIN(LauncherFollow)
#include "tst_launcher_follow.moc"
