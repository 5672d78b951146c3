// Following a detached run with a bounded stream (docs/launcher.md#attaching):
// while live, rank 0's events and log, the supervisor's log and every rank's
// essential events; the other ranks' steps and logs at catch-up or on demand.
// Run directories are written here in the supervisor's layout (this process
// holds supervisor.lock while "the supervisor lives"): no training core.
#include "launcher_test_support.hpp"
#include "../safe_signal.hpp"
#include "run_dir_checks.hpp"

#include "launch/detach/attach_session.hpp"
#include "launch/detach/rank_log_fetch.hpp"
#include "launch/detach/run_ingestor.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <functional>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sb;
using namespace sb::test;

namespace {

QByteArray stepLine(int rank, int step)
{
    return QStringLiteral("{\"type\":\"step\",\"v\":1,\"rank\":%1,\"t\":%2,\"run_id\":\"fake\",\"step\":%3,\"loss\":%4,"
                          "\"tokens\":64,\"step_ms\":10.5}\n")
        .arg(rank).arg(1700000000 + step).arg(step).arg(3.0 - step * 0.01).toUtf8();
}

QByteArray eventLine(int rank, const char* type, const QByteArray& fields)
{
    return "{\"type\":\"" + QByteArray(type) + "\",\"v\":1,\"rank\":" + QByteArray::number(rank) + ",\"t\":1700000000" + fields + "}\n";
}

// A run directory as the supervisor writes it: attempt-A/rank-R.{events,log},
// supervisor.log, state.json, and the lock held while it "lives".
class FakeRun {
public:
    FakeRun(QString dir, int ranks) : dir_(std::move(dir)), ranks_(ranks) {}
    ~FakeRun() { unlock(); }

    void start()
    {
        QDir().mkpath(dir_ + QStringLiteral("/attempt-0"));
        append(QStringLiteral("supervisor.log"), "{\"t\":1700000000,\"l\":\"supervisor 1 on here: run fake\"}\n");
        for (int r = 0; r < ranks_; ++r) {
            append(events(0, r), eventLine(r, "hello", ",\"host\":\"here\",\"world\":" + QByteArray::number(ranks_)));
            append(log(0, r), "{\"t\":1700000000,\"s\":\"e\",\"l\":\"rank " + QByteArray::number(r) + " says hi\"}\n");
        }
        setState("running");
        lockFd_ = ::open(QFile::encodeName(dir_ + QStringLiteral("/supervisor.lock")).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        ::flock(lockFd_, LOCK_EX);
    }
    void steps(int from, int to, int attempt = 0)
    {
        for (int s = from; s <= to; ++s)
            for (int r = 0; r < ranks_; ++r) append(events(attempt, r), stepLine(r, s));
    }
    void finish(const char* status = "completed")
    {
        for (int r = 0; r < ranks_; ++r) append(events(0, r), eventLine(r, "done", ",\"status\":\"ok\""));
        append(QStringLiteral("supervisor.log"), "{\"t\":1700000001,\"l\":\"run " + QByteArray(status) + "\"}\n");
        setState(status);
        unlock();
    }
    void append(const QString& file, const QByteArray& text)
    {
        QFile f(dir_ + QLatin1Char('/') + file);
        QVERIFY(f.open(QIODevice::Append));
        for (const QByteArray& l : text.split('\n'))
            if (!l.isEmpty()) f.write(l + '\n'), f.flush(); // one write a line, as the supervisor
    }
    // `extra`: more fields, ",\"name\":value...".
    void setState(const char* status, const QByteArray& extra = {}, double updatedAt = 1700000000)
    {
        setStateText("{\"version\":1,\"run_id\":\"fake\",\"status\":\"" + QByteArray(status) + "\",\"attempt\":0,\"world_size\":" +
                     QByteArray::number(ranks_) + ",\"supervisor\":{\"pid\":1,\"host\":\"here\"},\"updated_at\":" +
                     QByteArray::number(updatedAt, 'f', 3) + extra + "}\n");
    }
    // state.json as it is given, replaced atomically as the supervisor does.
    void setStateText(const QByteArray& text)
    {
        QFile f(dir_ + QStringLiteral("/state.json.tmp"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        QVERIFY(QFile::remove(dir_ + QStringLiteral("/state.json")) || !QFile::exists(dir_ + QStringLiteral("/state.json")));
        QVERIFY(QFile::rename(f.fileName(), dir_ + QStringLiteral("/state.json")));
    }
    void unlock()
    {
        if (lockFd_ >= 0) ::close(lockFd_);
        lockFd_ = -1;
    }
    static QString events(int attempt, int rank) { return QStringLiteral("attempt-%1/rank-%2.events").arg(attempt).arg(rank); }
    static QString log(int attempt, int rank) { return QStringLiteral("attempt-%1/rank-%2.log").arg(attempt).arg(rank); }
    const QString& dir() const { return dir_; }
    int ranks() const { return ranks_; }

private:
    QString dir_;
    int ranks_;
    int lockFd_ = -1;
};

// A store with one detached run of `run`, reached locally.
qint64 createRun(const QString& db, const FakeRun& run)
{
    QString error;
    auto store = store::SqliteRunStore::open(db, &error);
    if (!store) return -1;
    launch::AttachTarget t;
    t.runDir = run.dir();
    t.supervise = binDir() + QStringLiteral("/shardbench-supervise");
    store::NewRun row;
    static int made = 0; // several runs may share a store
    row.uid = QStringLiteral("fake-%1").arg(++made);
    row.planJson = QStringLiteral("{}");
    row.backend = QStringLiteral("local");
    row.worldSize = run.ranks();
    row.runDir = run.dir();
    row.attachJson = t.toJson();
    return store->createRun(row);
}

struct Stored {
    QHash<int, int> stepsOfRank;
    int steps = 0, distinctSteps = 0, events = 0, supervisorLines = 0;
    QHash<int, int> logsOfRank;
};

Stored stored(const QString& db, qint64 id)
{
    Stored s;
    QString error;
    auto reader = store::RunReader::open(db, &error);
    if (!reader) return s;
    QSet<QString> keys;
    reader->forEachStepRow(id, -1, [&](const store::MetricRow& r) {
        ++s.steps;
        ++s.stepsOfRank[r.m.rank];
        keys.insert(QStringLiteral("%1/%2/%3").arg(r.m.attempt).arg(r.m.rank).arg(r.m.step));
    });
    s.distinctSteps = static_cast<int>(keys.size());
    s.events = static_cast<int>(reader->events(id).size());
    s.supervisorLines = static_cast<int>(reader->logs(id, -1).size());
    for (const store::LogRecord& l : reader->logs(id, -2)) if (l.rank >= 0) ++s.logsOfRank[l.rank];
    return s;
}

// Every line of the run directory is stored once: every rank's steps and
// other events, the supervisor's log, and the logs of `logRanks`.
void expectAllOnce(const QString& db, qint64 id, const FakeRun& run, const QList<int>& logRanks)
{
    const Stored s = stored(db, id);
    int steps = 0, other = 0;
    for (int r = 0; r < run.ranks(); ++r) {
        int rankSteps = 0;
        for (const QByteArray& l : linesOf(run.dir() + QLatin1Char('/') + FakeRun::events(0, r)))
            (l.startsWith("{\"type\":\"step\"") ? rankSteps : other) += 1;
        QCOMPARE(s.stepsOfRank.value(r), rankSteps);
        steps += rankSteps;
        QCOMPARE(s.logsOfRank.value(r), logRanks.contains(r) ? static_cast<int>(linesOf(run.dir() + QLatin1Char('/') + FakeRun::log(0, r)).size()) : 0);
    }
    QCOMPARE(s.steps, steps);
    QCOMPARE(s.distinctSteps, steps);
    QCOMPARE(s.events, other);
    QCOMPARE(s.supervisorLines, static_cast<int>(linesOf(run.dir() + QStringLiteral("/supervisor.log")).size()));
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(text);
}

// `name` of the run directory replaced by a FIFO.
void makeFifo(const FakeRun& run, const QString& name)
{
    const QString path = run.dir() + QLatin1Char('/') + name;
    QVERIFY(!QFile::exists(path) || QFile::remove(path));
    QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0644), 0);
}

// `name` of the run directory replaced by a symbolic link to `target`.
void makeLink(const FakeRun& run, const QString& name, const QString& target)
{
    const QString path = run.dir() + QLatin1Char('/') + name;
    QVERIFY(!QFileInfo(path).isFile() || QFile::remove(path));
    QVERIFY(QFile::link(target, path));
}

// The launcher's own lines in the run's log (rank -1, not from supervisor.log).
QStringList launcherLines(const QString& db, qint64 id)
{
    QString error;
    auto reader = store::RunReader::open(db, &error);
    QStringList out;
    if (!reader) return out;
    for (const store::LogRecord& l : reader->logs(id, -1))
        if (l.stream == store::LogStream::Launcher && !l.src.startsWith(QLatin1String("supervisor.log:"))) out << l.line;
    return out;
}

CliResult attachOnce(const QString& db, qint64 id, const QStringList& more = {}, int timeoutMs = 30000)
{
    return runCli(QStringList{QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")} + more,
                  timeoutMs);
}

// The follower's records, as they come.
struct FollowerOutput {
    QProcess p;
    QList<QByteArray> records;
    QByteArray pending;
    void read()
    {
        pending += p.readAllStandardOutput();
        for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0;) {
            records << pending.left(nl);
            pending.remove(0, nl + 1);
        }
    }
    // Text records "K FILE O N ..." of `kind` for `file`.
    QList<QByteArray> of(char kind, const QString& file, qsizetype from = 0) const
    {
        QList<QByteArray> out;
        const QByteArray head = QByteArray(1, kind) + ' ' + file.toUtf8() + ' ';
        for (qsizetype i = from; i < records.size(); ++i)
            if (records[i].startsWith(head)) out << records[i];
        return out;
    }
};

} // namespace

class LauncherFollow : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(binDir() + QStringLiteral("/shardbench-supervise")), "shardbench-supervise is not built");
        QVERIFY2(QFile::exists(cliPath()), qPrintable(cliPath()));
        qunsetenv("SHARDBENCH_DB");
    }

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
        run.start();
        run.steps(1, 2);
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
        run.start();
        run.steps(1, 3);
        const QString db = tmp_.filePath(QStringLiteral("attach.sqlite"));
        const qint64 id = createRun(db, run);
        QVERIFY(id > 0);
        QString error;
        auto store = store::SqliteRunStore::open(db, &error);
        auto reader = store::RunReader::open(db, &error);
        QVERIFY2(store && reader, qPrintable(error));
        launch::AttachTarget target;
        QCOMPARE(launch::AttachTarget::fromJson(reader->run(id)->attachJson, &target), QString());
        launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject);
        launch::AttachSession session(*store, *reader->run(id), target, &policy, launch::AttachOptions{}, {}, {}, {});
        QString finished = QStringLiteral("(not finished)");
        connect(&session, &launch::AttachSession::finished, this, [&](const QString& e) { finished = e; });
        session.start();
        QVERIFY(waitFor([&] { store->flush(); return stored(db, id).steps == 9; }, 10000)); // the catch-up at start

        run.steps(4, 8);
        run.append(FakeRun::events(0, 2), eventLine(2, "error", ",\"message\":\"boom\""));
        QVERIFY(waitFor([&] { store->flush(); return stored(db, id).stepsOfRank.value(0) == 8 && stored(db, id).events == 4; }, 10000));
        QTest::qWait(400);
        store->flush();
        Stored live = stored(db, id);
        QCOMPARE(live.stepsOfRank.value(1), 3); // left for the catch-up
        QCOMPARE(live.stepsOfRank.value(2), 3);
        // Offsets never pass a line that was not stored.
        QCOMPARE(reader->ingestOffsets(id).value(FakeRun::events(0, 1)),
                 static_cast<qint64>(linesOf(run.dir() + QLatin1Char('/') + FakeRun::events(0, 1)).mid(0, 4).join('\n').size() + 1));

        run.finish();
        QVERIFY(waitFor([&] { return finished != QLatin1String("(not finished)"); }, 15000));
        QCOMPARE(finished, QString());
        store->flush();
        expectAllOnce(db, id, run, {0});
        QCOMPARE(session.ingestor().status(), store::RunStatus::Completed);
    }

    // The CLI killed (SIGKILL) while following live loses nothing: the next
    // attach catches up with every line once, and again with the offsets lost.
    void killedWhileLiveThenAttachedLosesNothing()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("killed")), 4);
        run.start();
        run.steps(1, 2);
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

        QString error;
        {
            auto store = store::SqliteRunStore::open(db, &error);
            launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject);
            QVERIFY(!launch::openRankLogFetch(db, *store, id, 7, &policy, &error));
            QVERIFY2(error.contains(QLatin1String("no rank 7")), qPrintable(error));
            for (int pass = 0; pass < 2; ++pass) {
                auto fetch = launch::openRankLogFetch(db, *store, id, 1, &policy, &error);
                QVERIFY2(fetch, qPrintable(error));
                QStringList lines;
                QString finished = QStringLiteral("(not finished)");
                connect(&fetch->ingestor(), &launch::RunIngestor::logLine, this, [&](int, int rank, const QString& l) { if (rank == 1) lines << l; });
                connect(fetch.get(), &launch::AttachSession::finished, this, [&](const QString& e) { finished = e; });
                fetch->start();
                QVERIFY(waitFor([&] { return finished != QLatin1String("(not finished)"); }, 15000));
                QCOMPARE(finished, QString());
                QCOMPARE(lines, pass == 0 ? QStringList{QStringLiteral("rank 1 says hi")} : QStringList{});
            }
            store->flush();
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
        QString error;
        auto store = store::SqliteRunStore::open(tmp_.filePath(QStringLiteral("reasons.sqlite")), &error);
        QVERIFY2(store, qPrintable(error));
        store::NewRun row;
        row.uid = QStringLiteral("reasons");
        row.planJson = QStringLiteral("{}");
        row.backend = QStringLiteral("local");
        row.worldSize = 2;
        const qint64 id = store->createRun(row);
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

    // Links out of the run directory are not followed: a rank's events file,
    // supervisor.log and an attempt folder that are links to files elsewhere
    // are not streamed, and each is said (and recorded once in the run's log).
    void linksOutOfTheRunDirectoryAreNotFollowed()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("links")), 2);
        run.start();
        run.steps(1, 2);
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
        auto reader = store::RunReader::open(db, &error);
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
        locked.start();
        locked.steps(1, 2);
        locked.unlock();
        makeFifo(locked, QStringLiteral("supervisor.lock"));
        FakeRun fine(tmp_.filePath(QStringLiteral("fifo-fine")), 2);
        fine.start();
        fine.steps(1, 2);
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
        ranks.start();
        ranks.steps(1, 2);
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
        run.start();
        run.steps(1, 3);
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
        auto reader = store::RunReader::open(db, &error);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(reader->ingestOffsets(id).value(FakeRun::events(0, r)), QFileInfo(run.dir() + QLatin1Char('/') + FakeRun::events(0, r)).size());
    }

    // The client takes no line record on trust: one whose offset does not
    // continue what is stored (a gap, an overlap) or that spans more than its
    // text moves no offset and stores nothing; a file outside the layout is refused.
    void lineRecordsMustContinueTheStoredOffset()
    {
        QString error;
        auto store = store::SqliteRunStore::open(tmp_.filePath(QStringLiteral("offsets.sqlite")), &error);
        QVERIFY2(store, qPrintable(error));
        store::NewRun row;
        row.uid = QStringLiteral("offsets");
        row.planJson = QStringLiteral("{}");
        row.backend = QStringLiteral("local");
        row.worldSize = 2;
        const qint64 id = store->createRun(row);
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
        store->flush();
        auto reader = store::RunReader::open(tmp_.filePath(QStringLiteral("offsets.sqlite")), &error);
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
        run.start();
        run.steps(1, 2);
        run.finish();
        run.setStateText(R"({"version":2,"run_id":"fake","status":"completed","attempt":0,"world_size":1,"updated_at":1700000000})");
        const QString db = tmp_.filePath(QStringLiteral("newer-state.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        QVERIFY2(a.code == 1 && a.err.contains(run.dir() + QStringLiteral("/state.json is version 2")) && a.err.contains(QLatin1String("version 1")),
                 qPrintable(describe(a)));
        QCOMPARE(countStore(db, id).status, QStringLiteral("starting"));

        QString error;
        auto store = store::SqliteRunStore::open(db, &error);
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
        run.start();
        run.steps(1, 2);
        run.append(FakeRun::events(0, 1), "{\"type\":\"step\",\"v\":2,\"rank\":1,\"t\":1700000010,\"step\":3,\"loss\":1}\n");
        run.append(FakeRun::events(0, 1), "{\"type\":\"gauge\",\"v\":2,\"rank\":1,\"t\":1700000011}\n");
        run.finish();
        const QString db = tmp_.filePath(QStringLiteral("newer-events.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        QVERIFY2(a.code == 0 && a.err.contains(QLatin1String("2 event line(s) of a newer protocol version were not read")), qPrintable(describe(a)));
        QCOMPARE(launcherLines(db, id).filter(QStringLiteral("an event of protocol version 2 was not read")).size(), 2);
        QString error;
        QCOMPARE(store::RunReader::open(db, &error)->run(id)->malformedLines, 2);
    }

    // A supervisor that holds its lock but has not rewritten its state for
    // three of its refresh periods (stopped with SIGSTOP) is said to be silent,
    // and heard from again once it writes.
    void silentSupervisorIsSaid()
    {
        FakeRun run(tmp_.filePath(QStringLiteral("silent")), 1);
        run.start();
        run.steps(1, 1);
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
        run.start();
        run.steps(1, 5);
        run.setState("running", ",\"steps_done\":2");
        run.unlock();
        const QString db = tmp_.filePath(QStringLiteral("dead.sqlite"));
        const qint64 id = createRun(db, run);
        const CliResult a = attachOnce(db, id);
        const QString when = QDateTime::fromMSecsSinceEpoch(qint64(1700000005) * 1000).toString(Qt::ISODate);
        QVERIFY2(a.code == 1 && a.out.contains(QStringLiteral("failed: the supervisor on here is gone (last heard from at %1), 5 steps").arg(when)),
                 qPrintable(describe(a)));
        QString error;
        QCOMPARE(store::RunReader::open(db, &error)->run(id)->stepsDone, 5);
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
            auto store = store::SqliteRunStore::open(db, &error);
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

QTEST_MAIN(LauncherFollow)
#include "tst_launcher_follow.moc"
