// What the detached-run suites share (tst_launcher_detach.cpp,
// tst_launcher_detach_removed.cpp): their plans, launches and the checks of
// a supervisor found by its pid.
#pragma once

#include "launcher_test_support.hpp"
#include "../safe_signal.hpp"
#include "run_dir_checks.hpp"

#include "launch/detach/attach_target.hpp"
#include "store/run_reader.hpp"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace sb::test {

inline CliResult cli(const QStringList& args, int timeoutMs = 180000) { return runCli(args, timeoutMs); }

inline void expectNoProcessesOf(const QString& uid, int timeoutMs)
{
    const QList<ProcessInfo> left = waitUntilNoneMention(uid.toUtf8(), timeoutMs);
    QVERIFY2(left.isEmpty(), qPrintable(describe(left)));
}

// The suites' base: a temporary folder and the helpers over it.
class DetachFixture : public QObject {
protected:
    QTemporaryDir tmp_;

    // initTestCase of each suite: the programs it runs are built, and no
    // agent or default store of the person running the tests is used.
    void checkPrograms()
    {
        QVERIFY2(QFile::exists(cliPath()), qPrintable(cliPath()));
        QVERIFY2(QFile::exists(binDir() + QStringLiteral("/shardbench-supervise")), "shardbench-supervise is not built");
        qunsetenv("SSH_AUTH_SOCK");
        qunsetenv("SHARDBENCH_DB");
    }

    QString plan(const QString& name, int steps, const QString& ckpt = {}, int interval = 0)
    {
        const QString path = tmp_.filePath(name);
        const QString err = writeTinyPlan(path, 1, 2, steps, ckpt, interval);
        return err.isEmpty() ? path : QString();
    }

    // The OpenSSH config the head node reaches the other hosts with: the
    // fixture's hosts and known_hosts, after `first` (first values win).
    QString writeHeadConfig(const SshdFixture& sshd, const QString& name, const QByteArray& first = {})
    {
        QFile base(sshd.configFile);
        if (!base.open(QIODevice::ReadOnly)) return {};
        const QString path = tmp_.filePath(name);
        const QByteArray text = first + base.readAll() + "\nHost *\n  UserKnownHostsFile " + sshd.knownHostsFile.toUtf8() + "\n";
        return SshdFixture::writeFile(path, text).isEmpty() ? path : QString();
    }

    // Two hosts of `sshd` with `slots` ranks each, launched through the first.
    QStringList headNodeArgs(const SshdFixture& sshd, int slots, const QString& remoteDir, const QString& headConfig)
    {
        return {QStringLiteral("--host"), sshd.alias(0) + QStringLiteral(":%1").arg(slots), QStringLiteral("--host"),
                sshd.alias(1) + QStringLiteral(":%1").arg(slots), QStringLiteral("--ssh-config"), sshd.configFile,
                QStringLiteral("--known-hosts"), sshd.knownHostsFile, QStringLiteral("--ssh-dir"), sshd.sshDir,
                QStringLiteral("--remote-core"), corePath(), QStringLiteral("--remote-dir"), tmp_.filePath(remoteDir),
                QStringLiteral("--head-ssh-config"), headConfig};
    }

    // Where the store says run `id` lives.
    launch::AttachTarget targetOf(const QString& db, qint64 id)
    {
        launch::AttachTarget t;
        QString error;
        auto reader = store::RunReader::open(db).valueOr(nullptr);
        const std::optional<store::RunRow> run = reader ? reader->run(id) : std::nullopt;
        if (run) t = launch::AttachTarget::fromJson(run->attachJson).valueOr(t);
        return t;
    }

    // The run id and the supervisor's pid, from the state of the run in `dir`.
    static std::pair<QString, qint64> supervisorOf(const QString& dir)
    {
        const QJsonObject state = stateOf(dir);
        return {state.value(QStringLiteral("run_id")).toString(),
                static_cast<qint64>(state.value(QStringLiteral("supervisor")).toObject().value(QStringLiteral("pid")).toDouble())};
    }

    // `rm -rf DIR` until it is gone (the supervisor may still be writing in it).
    void removeWhileRunning(const QString& dir)
    {
        QVERIFY(waitFor([&] {
            QProcess::execute(QStringLiteral("rm"), {QStringLiteral("-rf"), dir});
            return !QFileInfo::exists(dir);
        }, 10000));
    }

    // `shardbench-supervise signal` signals no process but the supervisor of
    // `dir` started at `startTime`: not the supervisor with another start
    // time (its pid reused), not another program at a recorded pid.
    void expectPidGuard(const QString& dir, qint64 pid, qint64 startTime)
    {
        const QString supervise = binDir() + QStringLiteral("/shardbench-supervise");
        QByteArray out;
        int code = runProgram(supervise, {QStringLiteral("signal"), dir, QStringLiteral("--pid"), QString::number(pid), QStringLiteral("--start-time"),
                                          QString::number(startTime + 1), QStringLiteral("--term")}, &out);
        QVERIFY2(code == 0 && out.contains("\"signalled\":[]") && out.contains("\"alive\":false"), out.constData());
        QCOMPARE(sb::test::signalProcess(pid, 0), 0);
        QProcess sleeper;
        dieWithParent(sleeper, SIGKILL);
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(sleeper.waitForStarted());
        code = runProgram(supervise, {QStringLiteral("signal"), dir, QStringLiteral("--pid"), QString::number(sleeper.processId()),
                                      QStringLiteral("--kill")}, &out);
        QVERIFY2(code == 0 && out.contains("\"signalled\":[]"), out.constData());
        QVERIFY(!sleeper.waitForFinished(300));
        sleeper.kill();
        sleeper.waitForFinished(5000);
        // Found by its start time and command line, it is alive.
        code = runProgram(supervise, {QStringLiteral("signal"), dir, QStringLiteral("--pid"), QString::number(pid), QStringLiteral("--start-time"),
                                      QString::number(startTime)}, &out);
        QVERIFY2(code == 0 && out.contains("\"alive\":true") && out.contains("\"run_dir\":false"), out.constData());
    }

    // Launches detached without following; returns the run id.
    qint64 launch(const QString& planPath, const QString& db, const QStringList& extra = {})
    {
        const CliResult r = cli(QStringList{QStringLiteral("run"), planPath, QStringLiteral("--detach"), QStringLiteral("--no-follow"),
                                         QStringLiteral("--db"), db, QStringLiteral("--env"), QStringLiteral("SB_THREADS=1")} +
                             extra);
        if (r.code != 0) qWarning("%s", qPrintable(describe(r)));
        return r.code == 0 ? r.out.trimmed().toLongLong() : -1;
    }
};

} // namespace sb::test
