// Detached runs whose run directory was removed while they trained
// (docs/launcher.md#detached-runs): `stop` still finds the supervisor by the
// pid and start time recorded at launch, locally and over SSH, and never
// signals another process; a vanished run is recorded and can be deleted.
#include "detach_fixture.hpp"

#include <QDir>

using namespace sb;
using namespace sb::test;

class LauncherDetachRemoved : public DetachFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { checkPrograms(); }

    // `stop` finds the supervisor by the pid and start time recorded at launch
    // (and its command line), stops it and its ranks, says so and records the
    // run cancelled; `delete` then works. A pid whose start time or command
    // line does not match is never signalled.
    void aRemovedRunDirectoryStillStops()
    {
        const QString db = tmp_.filePath(QStringLiteral("removed.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("removed.json"), 1000000), db);
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QVERIFY(waitFor([&] { return countDir(dir).steps > 2; }, 120000));
        const auto [uid, pid] = supervisorOf(dir);
        QVERIFY(pid > 1 && !uid.isEmpty());
        // The launch recorded the supervisor's process.
        const launch::AttachTarget target = targetOf(db, id);
        QCOMPARE(target.supervisorPid, pid);
        QVERIFY2(target.supervisorStartTime > 0, qPrintable(QString::number(target.supervisorStartTime)));

        removeWhileRunning(dir);
        QVERIFY(!QFileInfo::exists(dir));
        expectPidGuard(dir, pid, target.supervisorStartTime);
        // Attaching cannot follow it, and does not call it over while it runs.
        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 1 && a.err.contains(QLatin1String("no run directory")), qPrintable(describe(a)));
        QVERIFY2(!isFinalStatus(countStore(db, id).status), qPrintable(countStore(db, id).status));
        QVERIFY2(!processesMentioning(uid.toUtf8()).isEmpty(), "the run should still be training");

        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QVERIFY2(stop.err.contains(QStringLiteral("the run directory %1 is gone; the supervisor (pid %2) was stopped").arg(dir).arg(pid)),
                 qPrintable(describe(stop)));
        expectNoProcessesOf(uid, 15000);
        const StoreCounts row = countStore(db, id);
        QCOMPARE(row.status, QStringLiteral("cancelled"));
        QVERIFY2(row.reason.contains(QLatin1String("is gone; the supervisor (pid")), qPrintable(row.reason));
        const CliResult del = cli({QStringLiteral("delete"), QString::number(id), QStringLiteral("--yes"), QStringLiteral("--db"), db});
        QVERIFY2(del.code == 0 && del.out.contains(QStringLiteral("deleted run %1").arg(id)), qPrintable(describe(del)));
    }

    // A supervisor killed after its directory was removed: attaching records
    // the run failed (not `starting` for ever), and `delete` works.
    void aVanishedRunWithoutItsDirectoryIsRecordedAndDeleted()
    {
        const QString db = tmp_.filePath(QStringLiteral("vanished.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("vanished.json"), 1000000), db);
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id);
        QVERIFY(waitFor([&] { return countDir(dir).steps > 2; }, 120000));
        const auto [uid, pid] = supervisorOf(dir);
        removeWhileRunning(dir);
        QCOMPARE(sb::test::signalProcess(pid, SIGKILL), 0);
        expectNoProcessesOf(uid, 15000);
        const CliResult a = cli({QStringLiteral("attach"), QString::number(id), QStringLiteral("--db"), db, QStringLiteral("--no-follow")});
        QVERIFY2(a.code == 1 && a.err.contains(QLatin1String("no supervisor of it runs")), qPrintable(describe(a)));
        const StoreCounts row = countStore(db, id);
        QCOMPARE(row.status, QStringLiteral("failed"));
        QVERIFY2(row.reason == QStringLiteral("the run directory %1 is gone and no supervisor of it runs").arg(dir), qPrintable(row.reason));
        const CliResult del = cli({QStringLiteral("delete"), QString::number(id), QStringLiteral("--yes"), QStringLiteral("--db"), db});
        QVERIFY2(del.code == 0, qPrintable(describe(del)));
    }

    // The same over SSH: the head node's run directory is removed; `stop`
    // finds the supervisor there by process, through a fixed remote command.
    void aRemovedRunDirectoryStillStopsOverSsh()
    {
        SshdFixture sshd(tmp_.filePath(QStringLiteral("sshd-removed")));
        QDir().mkpath(sshd.dir);
        QCOMPARE(sshd.start({QStringLiteral("127.0.0.16")}), QString());
        const QString db = tmp_.filePath(QStringLiteral("removed-ssh.sqlite"));
        const qint64 id = launch(plan(QStringLiteral("removed-ssh.json"), 1000000), db,
                                 {QStringLiteral("--host"), sshd.alias(0) + QStringLiteral(":2"), QStringLiteral("--ssh-config"), sshd.configFile,
                                  QStringLiteral("--known-hosts"), sshd.knownHostsFile, QStringLiteral("--ssh-dir"), sshd.sshDir,
                                  QStringLiteral("--remote-core"), corePath(), QStringLiteral("--remote-dir"),
                                  tmp_.filePath(QStringLiteral("remote-removed"))});
        QVERIFY(id > 0);
        const QString dir = runDirOf(db, id); // loopback: the head node's folder is visible here too
        QVERIFY(waitFor([&] { return countDir(dir).steps > 2; }, 120000));
        const auto [uid, pid] = supervisorOf(dir);
        const launch::AttachTarget target = targetOf(db, id);
        QCOMPARE(target.supervisorPid, pid);
        QVERIFY(target.supervisorStartTime > 0);
        removeWhileRunning(dir);
        const CliResult stop = cli({QStringLiteral("stop"), QString::number(id), QStringLiteral("--db"), db});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QVERIFY2(stop.err.contains(QStringLiteral("the run directory %1:%2 is gone; the supervisor (pid %3) was stopped")
                                       .arg(sshd.alias(0), dir)
                                       .arg(pid)),
                 qPrintable(describe(stop)));
        expectNoProcessesOf(uid, 15000);
        QCOMPARE(countStore(db, id).status, QStringLiteral("cancelled"));
        const CliResult del = cli({QStringLiteral("delete"), QString::number(id), QStringLiteral("--yes"), QStringLiteral("--db"), db});
        QVERIFY2(del.code == 0, qPrintable(describe(del)));
    }
};

QTEST_MAIN(LauncherDetachRemoved)
#include "tst_launcher_detach_removed.moc"
