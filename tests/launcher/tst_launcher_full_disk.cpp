// Nothing lost when the disk fills (docs/launcher.md#detached-runs): a real
// tmpfs of a few MiB is the run root, filled by a file written until ENOSPC.
// A launch onto a full disk is refused with the reason, leaving no empty
// file and no run recorded as running; a disk filled during the run (freed
// later, or left full) ends the run `completed` with the lines it lost
// counted and said, in state.json and in the store, never a plain completion
// and never a false failure.
#include "launcher_test_support.hpp"
#include "run_dir_checks.hpp"
#include "../tmpfs_mount.hpp"

#include "store/run_reader.hpp"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace sb;
using namespace sb::test;

namespace {

// Writes `path` until the disk is full (the last write fails with ENOSPC); "" or what went wrong.
QString fillDisk(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return QStringLiteral("cannot create %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    static const std::string chunk(1 << 16, 'x');
    for (;;) {
        const ssize_t n = ::write(fd, chunk.data(), chunk.size());
        if (n > 0) continue;
        const int err = errno;
        ::close(fd);
        return n < 0 && err == ENOSPC ? QString() : QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(err)));
    }
}

// Every file under `root` with its size, "path=bytes".
QStringList filesUnder(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        out << QStringLiteral("%1=%2").arg(QDir(root).relativeFilePath(f)).arg(QFileInfo(f).size());
    }
    out.sort();
    return out;
}

int linesIn(const QString& path) { return static_cast<int>(linesOf(path).size()); }

} // namespace

class LauncherFullDisk : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    QString plan(const QString& name, int steps)
    {
        const QString path = tmp_.filePath(name);
        return writeTinyPlan(path, 1, 2, steps).isEmpty() ? path : QString();
    }

    CliResult launch(const QString& planPath, const QString& db, const QString& runRoot)
    {
        return runCli({QStringLiteral("run"), planPath, QStringLiteral("--detach"), QStringLiteral("--no-follow"), QStringLiteral("--db"), db,
                       QStringLiteral("--run-root"), runRoot, QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")}, 120000);
    }

    // Launches `steps` steps onto `disk`, fills it once rank 0 has written 20
    // steps and, when `free`, frees it again once the supervisor has counted
    // lost lines. Returns the run directory ("" after a failed QVERIFY).
    void runThroughAFullDisk(const QString& name, int steps, bool free, QString* dirOut, qint64* idOut)
    {
        const QString root = tmp_.filePath(name);
        const QString db = tmp_.filePath(name + QStringLiteral(".sqlite"));
        const QString runs = root + QStringLiteral("/runs");
        const CliResult r = launch(plan(name + QStringLiteral(".json"), steps), db, runs);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const qint64 id = r.out.trimmed().toLongLong();
        const QString dir = runDirOf(db, id);
        QVERIFY2(dir.startsWith(runs), qPrintable(dir));
        const QString events0 = dir + QStringLiteral("/attempt-0/rank-0.events");
        QVERIFY2(waitFor([&] { return linesIn(events0) >= 20 || isFinalStatus(statusOf(dir)); }, 120000), qPrintable(statusOf(dir)));
        QVERIFY2(!isFinalStatus(statusOf(dir)), "the run ended before the disk was filled: give it more steps");
        const QString filler = root + QStringLiteral("/filler");
        QCOMPARE(fillDisk(filler), QString());
        // The supervisor says it lost lines in its state as soon as it can (its reserve).
        QVERIFY2(waitFor([&] { return stateOf(dir).value(QStringLiteral("lines_lost")).toDouble() > 0 || isFinalStatus(statusOf(dir)); }, 60000),
                 qPrintable(statusOf(dir)));
        if (free) {
            QTest::qWait(500);
            QVERIFY(QFile::remove(filler));
        }
        QVERIFY2(waitFor([&] { return isFinalStatus(statusOf(dir)); }, 240000), qPrintable(statusOf(dir)));
        *dirOut = dir;
        *idOut = id;
    }

    // The run completed with lines lost: state.json, attach (exit 3) and the store say how many and why.
    void expectLinesLostRecorded(const QString& dir, qint64 id, const QString& db, int steps)
    {
        const QJsonObject state = stateOf(dir);
        QCOMPARE(state.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
        const qint64 lost = static_cast<qint64>(state.value(QStringLiteral("lines_lost")).toDouble());
        QVERIFY2(lost > 0, "no lines counted as lost");
        const QString why = state.value(QStringLiteral("write_error")).toString();
        QVERIFY2(why.startsWith(QLatin1String("no space left on device (ENOSPC) writing ")), qPrintable(why));
        QCOMPARE(state.value(QStringLiteral("reason_code")).toString(), QStringLiteral("run.lines_lost"));
        const QString reason = QStringLiteral("%1 lines lost: %2").arg(lost).arg(why);
        QCOMPARE(state.value(QStringLiteral("reason")).toString(), reason);
        // Each rank's events file lost what is missing of its steps (and maybe more: other events).
        const QJsonObject byFile = state.value(QStringLiteral("lines_lost_by_file")).toObject();
        qint64 perFile = 0;
        for (const QString& f : byFile.keys()) perFile += static_cast<qint64>(byFile.value(f).toDouble());
        QCOMPARE(perFile, lost);
        for (int rank = 0; rank < 2; ++rank) {
            const QString file = QStringLiteral("attempt-0/rank-%1.events").arg(rank);
            int stepLines = 0;
            for (const QByteArray& l : linesOf(dir + QLatin1Char('/') + file)) stepLines += l.contains("\"type\":\"step\"");
            QVERIFY2(stepLines < steps, qPrintable(file));
            QVERIFY2(stepLines + static_cast<qint64>(byFile.value(file).toDouble()) >= steps,
                     qPrintable(QStringLiteral("%1: %2 step lines, %3 lost").arg(file).arg(stepLines).arg(byFile.value(file).toDouble())));
        }

        const CliResult a = runCli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")}, 120000);
        QVERIFY2(a.code == 3 && a.out.contains(QStringLiteral("completed: ") + reason), qPrintable(describe(a)));
        const StoreCounts s = countStore(db, id);
        QCOMPARE(s.status, QStringLiteral("completed"));
        QCOMPARE(s.reason, reason);
        QString error;
        auto readerOpened = store::RunReader::open(db);
        QVERIFY2(readerOpened, readerOpened.error().c_str());
        auto reader = std::move(readerOpened).value();
        const std::optional<store::RunRow> run = reader->run(id);
        QVERIFY(run);
        QCOMPARE(run->reasonCode, QStringLiteral("run.lines_lost"));
        QCOMPARE(run->reasonArgs.value(0), QString::number(lost));
        // The room the supervisor kept for its state goes with it.
        QVERIFY(waitFor([&] { return !QFile::exists(dir + QStringLiteral("/state.reserve")); }, 10000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(cliPath()), qPrintable(cliPath()));
        QVERIFY2(QFile::exists(binDir() + QStringLiteral("/shardbench-supervise")), "shardbench-supervise is not built");
        qunsetenv("SHARDBENCH_DB");
        qunsetenv("SSH_AUTH_SOCK");
    }

    // A full disk at launch: refused with the reason (the file system, the
    // run directory, the file, the error), exit 1, no empty plan.json or
    // spec.json left, and the run recorded as a failed launch, not running.
    void aLaunchOntoAFullDiskIsRefused()
    {
        const QString root = tmp_.filePath(QStringLiteral("full-launch"));
        const test::TmpfsMount disk(root, "256k");
        if (!disk.ok()) QSKIP(qPrintable(disk.why()));
        QCOMPARE(fillDisk(root + QStringLiteral("/filler")), QString());
        const QString db = tmp_.filePath(QStringLiteral("full-launch.sqlite"));
        const CliResult r = launch(plan(QStringLiteral("full-launch.json"), 5), db, root + QStringLiteral("/runs"));
        QVERIFY2(r.code == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("no space left on %1 (tmpfs) for the run directory %1/runs/").arg(root)) &&
                     r.err.contains(QStringLiteral("/plan.json: No space left on device")),
                 qPrintable(describe(r)));
        QVERIFY2(!r.err.contains(QStringLiteral("not valid JSON")), qPrintable(describe(r)));
        // Nothing but the filler: no empty file, no run directory.
        const QStringList files = filesUnder(root);
        QCOMPARE(files.size(), 1);
        QVERIFY2(files[0].startsWith(QLatin1String("filler=")), qPrintable(files.join(u' ')));
        QCOMPARE(QDir(root + QStringLiteral("/runs")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
        const StoreCounts s = countStore(db, 1);
        QCOMPARE(s.status, QStringLiteral("failed"));
        QVERIFY2(s.reason.contains(QStringLiteral("no space left on ")), qPrintable(s.reason));
    }

    // The same over SSH: SFTP says only "Failure", the server's statvfs says
    // the disk is full. The pre-flight's probe finds it (its test plan cannot
    // be written): nothing is left on the head node, no run is recorded.
    void aLaunchOntoAFullDiskOverSshIsRefused()
    {
        const QString root = tmp_.filePath(QStringLiteral("full-ssh"));
        const test::TmpfsMount disk(root, "256k");
        if (!disk.ok()) QSKIP(qPrintable(disk.why()));
        QCOMPARE(fillDisk(root + QStringLiteral("/filler")), QString());
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.21")}), QString());
        const QString db = tmp_.filePath(QStringLiteral("full-ssh.sqlite"));
        const CliResult r = runCli({QStringLiteral("run"), plan(QStringLiteral("full-ssh.json"), 5), QStringLiteral("--detach"), QStringLiteral("--no-follow"),
                                    QStringLiteral("--db"), db, QStringLiteral("--host"), sshd.alias(0) + QStringLiteral(":2"),
                                    QStringLiteral("--ssh-config"), sshd.configFile, QStringLiteral("--known-hosts"), sshd.knownHostsFile,
                                    QStringLiteral("--ssh-dir"), sshd.sshDir, QStringLiteral("--remote-core"), corePath(),
                                    QStringLiteral("--remote-dir"), root + QStringLiteral("/runs")}, 120000);
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("no space left on its file system (")) &&
                     r.err.contains(QStringLiteral("bytes free) for the folder %1/runs/").arg(root)) && r.err.contains(QStringLiteral("/plan.json\"")),
                 qPrintable(describe(r)));
        const QStringList files = filesUnder(root);
        QCOMPARE(files.size(), 1);
        QVERIFY2(files[0].startsWith(QLatin1String("filler=")), qPrintable(files.join(u' ')));
        QVERIFY(!QFileInfo::exists(db)); // refused before the store was opened
    }

    // Filled while the ranks train, freed a moment later: the run completes,
    // and the lines written while it was full are counted and said.
    void linesLostWhileTheDiskWasFullAreCounted()
    {
        const QString root = tmp_.filePath(QStringLiteral("fill-free"));
        const test::TmpfsMount disk(root, "32m");
        if (!disk.ok()) QSKIP(qPrintable(disk.why()));
        constexpr int kSteps = 4000;
        QString dir;
        qint64 id = -1;
        runThroughAFullDisk(QStringLiteral("fill-free"), kSteps, true, &dir, &id);
        if (QTest::currentTestFailed()) return;
        // Written again once there was room: the last steps are there.
        QCOMPARE(countDir(dir).maxStep, kSteps);
        expectLinesLostRecorded(dir, id, tmp_.filePath(QStringLiteral("fill-free.sqlite")), kSteps);
    }

    // Left full to the end: the supervisor still records the run's end
    // (completed, with the lines it lost), from the room it kept for its state.
    void aDiskLeftFullStillRecordsTheEnd()
    {
        const QString root = tmp_.filePath(QStringLiteral("left-full"));
        const test::TmpfsMount disk(root, "16m");
        if (!disk.ok()) QSKIP(qPrintable(disk.why()));
        constexpr int kSteps = 1500;
        QString dir;
        qint64 id = -1;
        runThroughAFullDisk(QStringLiteral("left-full"), kSteps, false, &dir, &id);
        if (QTest::currentTestFailed()) return;
        expectLinesLostRecorded(dir, id, tmp_.filePath(QStringLiteral("left-full.sqlite")), kSteps);
    }
};

QTEST_GUILESS_MAIN(LauncherFullDisk)
#include "tst_launcher_full_disk.moc"
