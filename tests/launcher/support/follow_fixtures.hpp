// A detached run directory written by a test in the supervisor's layout (this
// process holds supervisor.lock while "the supervisor lives"), and what the
// follow suites read back: the store's rows, the follower's records.
#pragma once

#include "launcher_test_support.hpp"
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


namespace sb::test {

// For the follow suites' initTestCase: "" once shardbench-supervise and the
// CLI are built; SHARDBENCH_DB is unset, so only the suites' --db is written.
inline QString followToolsReady()
{
    qunsetenv("SHARDBENCH_DB");
    for (const QString& binary : QStringList{binDir() + QStringLiteral("/shardbench-supervise"), cliPath()})
        if (!QFile::exists(binary)) return binary + QStringLiteral(" is not built");
    return {};
}

inline QByteArray stepLine(int rank, int step)
{
    return QStringLiteral("{\"type\":\"step\",\"v\":1,\"rank\":%1,\"t\":%2,\"run_id\":\"fake\",\"step\":%3,\"loss\":%4,"
                          "\"tokens\":64,\"step_ms\":10.5}\n")
        .arg(rank).arg(1700000000 + step).arg(step).arg(3.0 - step * 0.01).toUtf8();
}

inline QByteArray eventLine(int rank, const char* type, const QByteArray& fields)
{
    return "{\"type\":\"" + QByteArray(type) + "\",\"v\":1,\"rank\":" + QByteArray::number(rank) + ",\"t\":1700000000" + fields + "}\n";
}

// A run directory as the supervisor writes it: attempt-A/rank-R.{events,log},
// supervisor.log, state.json, and the lock held while it "lives".
class FakeRun {
public:
    FakeRun(QString dir, int ranks) : dir_(std::move(dir)), ranks_(ranks) {}
    ~FakeRun() { unlock(); }

    // The supervisor "starts", and every rank writes steps 1..firstSteps.
    void start(int firstSteps = 0)
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
        steps(1, firstSteps);
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
inline qint64 createRun(const QString& db, const FakeRun& run)
{
    QString error;
    auto store = store::SqliteRunStore::open(db).valueOr(nullptr);
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
    return store->createRun(row).value();
}

struct Stored {
    QHash<int, int> stepsOfRank;
    int steps = 0, distinctSteps = 0, events = 0, supervisorLines = 0;
    QHash<int, int> logsOfRank;
};

inline Stored stored(const QString& db, qint64 id)
{
    Stored s;
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
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
inline void expectAllOnce(const QString& db, qint64 id, const FakeRun& run, const QList<int>& logRanks)
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

inline void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(text);
}

// `name` of the run directory replaced by a FIFO.
inline void makeFifo(const FakeRun& run, const QString& name)
{
    const QString path = run.dir() + QLatin1Char('/') + name;
    QVERIFY(!QFile::exists(path) || QFile::remove(path));
    QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0644), 0);
}

// `name` of the run directory replaced by a symbolic link to `target`.
inline void makeLink(const FakeRun& run, const QString& name, const QString& target)
{
    const QString path = run.dir() + QLatin1Char('/') + name;
    QVERIFY(!QFileInfo(path).isFile() || QFile::remove(path));
    QVERIFY(QFile::link(target, path));
}

// The launcher's own lines in the run's log (rank -1, not from supervisor.log).
inline QStringList launcherLines(const QString& db, qint64 id)
{
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
    QStringList out;
    if (!reader) return out;
    for (const store::LogRecord& l : reader->logs(id, -1))
        if (l.stream == store::LogStream::Launcher && !l.src.startsWith(QLatin1String("supervisor.log:"))) out << l.line;
    return out;
}

inline CliResult attachOnce(const QString& db, qint64 id, const QStringList& more = {}, int timeoutMs = 30000)
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

} // namespace sb::test
