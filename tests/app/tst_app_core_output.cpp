// A "core" that prints without end (broken, or another program under the
// core's name) must not make the launcher buffer its output: `run`,
// `preflight` and `probe --local` read at most a bounded amount, stop it,
// and say the core's output was too long. The real shardbench-cli runs as a
// child of this test (fork and exec, so that wait4 reports its own peak
// memory), under a memory limit and a time limit, so that the unbounded read
// fails here rather than filling the machine.
#include "hosts/host_probe.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

QString cli() { return qEnvironmentVariable("SB_BIN_DIR") + QStringLiteral("/shardbench-cli"); }

struct ChildRun {
    bool finished = false; // within the time limit
    int exitCode = -1;     // -1: killed by a signal
    long maxRssKb = 0;     // of the CLI itself
    qint64 ms = 0;
    QString output;        // stdout and stderr
};

// Runs `program args` in `workDir` with at most `dataLimit` bytes of heap
// (RLIMIT_DATA: an unbounded read dies instead of growing), killed after `ms`.
ChildRun runLimited(const QString& program, const QStringList& args, const QString& workDir, rlim_t dataLimit, int ms)
{
    const QByteArray outPath = (workDir + QStringLiteral("/child-output.txt")).toLocal8Bit();
    std::vector<QByteArray> argvBytes{program.toLocal8Bit()};
    for (const QString& a : args) argvBytes.push_back(a.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& a : argvBytes) argv.push_back(a.data());
    argv.push_back(nullptr);
    const QByteArray dir = workDir.toLocal8Bit();
    ChildRun r;
    QElapsedTimer clock;
    clock.start();
    const pid_t pid = ::fork();
    if (pid == 0) { // only async-signal-safe calls until exec
        const int fd = ::open(outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ::dup2(fd, 1) < 0 || ::dup2(fd, 2) < 0 || ::chdir(dir.constData()) != 0) ::_exit(126);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, 0);
        const rlimit limit{dataLimit, dataLimit};
        ::setrlimit(RLIMIT_DATA, &limit);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    if (pid < 0) return r;
    int status = 0;
    rusage usage{};
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) {
            r.finished = true;
            break;
        }
        if (clock.elapsed() > ms) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            break;
        }
        QThread::msleep(20);
    }
    r.ms = clock.elapsed();
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.maxRssKb = usage.ru_maxrss;
    QFile out(QString::fromLocal8Bit(outPath));
    if (out.open(QIODevice::ReadOnly)) r.output = QString::fromUtf8(out.read(1 << 20));
    return r;
}

QString describe(const ChildRun& r)
{
    return QStringLiteral("finished %1 in %2 ms, exit %3, max RSS %4 kB, output:\n%5")
        .arg(r.finished)
        .arg(r.ms)
        .arg(r.exitCode)
        .arg(r.maxRssKb)
        .arg(r.output.left(3000));
}

} // namespace

class TestAppCoreOutput : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString core_, plan_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        QVERIFY2(QFileInfo(cli()).isExecutable(), qPrintable(cli() + QStringLiteral(" is not built")));
        // Endless lines that even start like a version, for any arguments.
        core_ = tmp_.filePath(QStringLiteral("chatty-core"));
        QFile script(core_);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nexec yes 'shardbench-core 9.9 (CPU and Gloo) and then some more words, without end'\n");
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        plan_ = tmp_.filePath(QStringLiteral("plan.json"));
        QFile plan(plan_);
        QVERIFY(plan.open(QIODevice::WriteOnly));
        plan.write(sb::app::probePlanJson()); // one step of a tiny model on the CPU
    }

    void chattyCoreIsStoppedAndNamed_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString db = tmp_.filePath(QStringLiteral("runs.db"));
        QTest::newRow("run (the pre-flight's probe run)") << QStringList{QStringLiteral("run"), QStringLiteral("plan.json"), QStringLiteral("--core"),
                                                         QStringLiteral("chatty-core"), QStringLiteral("--db"), db}
                                         << 2 << QStringLiteral("its output was too long (more than 1 MiB on stdout), so it was stopped");
        QTest::newRow("preflight (the probe run)")
            << QStringList{QStringLiteral("preflight"), QStringLiteral("plan.json"), QStringLiteral("--core"), QStringLiteral("chatty-core")} << 1
            << QStringLiteral("its output was too long (more than 1 MiB on stdout), so it was stopped");
        QTest::newRow("probe --local") << QStringList{QStringLiteral("probe"), QStringLiteral("--local"), QStringLiteral("--core"),
                                                       QStringLiteral("chatty-core")}
                                       << 1 << QStringLiteral("its output was too long (more than 1 MiB on stdout), so it was stopped");
    }

    void chattyCoreIsStoppedAndNamed()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        // 768 MiB of heap at most (a GiB was read before), 30 s at most (the
        // old read waited 10 s for --version and 90 s for the probe).
        const ChildRun r = runLimited(cli(), args, tmp_.path(), rlim_t(768) << 20, 30000);
        QVERIFY2(r.finished, qPrintable(describe(r)));
        QVERIFY2(r.ms < 8000, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.output.contains(message), qPrintable(describe(r)));
        QVERIFY2(r.maxRssKb < 100 * 1024, qPrintable(describe(r)));
        QVERIFY(!QFile::exists(tmp_.filePath(QStringLiteral("runs.db")))); // refused before the store was opened
    }
};

QTEST_GUILESS_MAIN(TestAppCoreOutput)
#include "tst_app_core_output.moc"
