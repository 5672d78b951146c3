#include "detached_control.hpp"

#include "../shell_quote.hpp"
#include "../slurm/slurm_job.hpp"
#include "../ssh/ssh_connection.hpp"
#include "protocol/signal_reply.hpp"

#include <QDateTime>
#include <QProcess>

namespace sb::launch {

namespace {

constexpr int kStopWaitMs = 120000;

QString runLocally(const AttachTarget& target, const QByteArrayList& argv, QByteArray* output, int* status)
{
    QProcess p;
    QStringList list;
    for (const QByteArray& x : argv.mid(1)) list << QString::fromUtf8(x);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(target.supervise, list);
    if (!p.waitForStarted(10000)) return QStringLiteral("cannot run %1: %2").arg(target.supervise, p.errorString());
    if (!p.waitForFinished(kStopWaitMs)) {
        p.kill();
        p.waitForFinished(2000);
        return QStringLiteral("%1 stop did not finish within %2 s").arg(target.supervise).arg(kStopWaitMs / 1000);
    }
    *output = p.readAll();
    *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return {};
}

QString runOverSsh(const AttachTarget& target, const QByteArrayList& argv, QByteArray* output, int* status,
                   SshConnection* open = nullptr)
{
    FixedHostKeyPolicy policy(HostKeyDecision::Reject); // the launch verified the host
    SshConnection own;
    SshConnection& conn = open ? *open : own;
    HostKeyInfo key;
    if (!open)
        if (const Status opened = conn.open(target.host, target.ssh, policy, &key); !opened) return qtMessage(opened);
    const Result<QByteArray> cmd = shellCommand(argv);
    return qtMessage(cmd ? conn.run(cmd.value() + " 2>&1", output, status, kStopWaitMs) : cmd.status());
}

// Where the run directory is, for a person: DIR here, HOST:DIR over SSH.
QString runDirLabel(const AttachTarget& t)
{
    return t.transport == AttachTarget::Transport::Ssh ? t.host.name + QLatin1Char(':') + t.runDir : t.runDir;
}

QString pidList(const QList<qint64>& pids)
{
    QStringList words;
    for (qint64 p : pids) words << QString::number(p);
    return words.join(QStringLiteral(", "));
}

} // namespace

Result<std::unique_ptr<AttachSession>> openAttachSession(const QString& dbPath, store::RunStore& store, qint64 runId,
                                                         HostKeyPolicy* policy, const AttachOptions& options,
                                                         store::RunRow* row, QObject* parent)
{
    Result<std::unique_ptr<store::RunReader>> opened = store::RunReader::open(dbPath);
    if (!opened) return opened.status();
    store::RunReader* reader = opened.value().get();
    std::optional<store::RunRow> run = reader->run(runId);
    if (!run) return qtError(reader->lastError());
    if (!run->isDetached()) return qtError(QStringLiteral("run %1 was not launched detached (its launcher supervised it)").arg(runId));
    const Result<AttachTarget> recorded = AttachTarget::fromJson(run->attachJson);
    if (!recorded) return recorded.status().prefixed("run " + std::to_string(runId));
    const AttachTarget& target = recorded.value();
    if (row) *row = *run;
    return {std::make_unique<AttachSession>(store, *run, target, policy, options, reader->ingestOffsets(runId),
                                            reader->logLineCounts(runId), reader->eventBytes(runId), parent)};
}

Result<SupervisorProcess> signalSupervisor(const AttachTarget& target, SupervisorSignal sig, SshConnection* conn)
{
    if (target.transport == AttachTarget::Transport::Slurm) return qtError(QStringLiteral("a Slurm run's supervisor is its job"));
    QByteArrayList args = {"signal"};
    if (target.supervisorPid > 0) args << "--pid" << QByteArray::number(target.supervisorPid);
    if (target.supervisorPid > 0 && target.supervisorStartTime >= 0)
        args << "--start-time" << QByteArray::number(target.supervisorStartTime);
    if (sig == SupervisorSignal::Term) args << "--term";
    if (sig == SupervisorSignal::Kill) args << "--kill";
    const QByteArrayList argv = superviseCommand(target, args);
    QByteArray output;
    int status = -1;
    const QString error = target.transport == AttachTarget::Transport::Local ? runLocally(target, argv, &output, &status)
                                                                            : runOverSsh(target, argv, &output, &status, conn);
    if (!error.isEmpty()) return qtError(error);
    // One JSON line on stdout; stderr (merged) may say more before or after it.
    const std::optional<protocol::SignalReply> reply =
        protocol::findSignalReply(std::string_view(output.constData(), static_cast<std::size_t>(output.size())));
    if (!reply || status != 0) {
        const QString words = QString::fromUtf8(output.trimmed().left(2000));
        return qtError(words.isEmpty() ? QStringLiteral("shardbench-supervise signal exited with %1").arg(status) : words);
    }
    SupervisorProcess p;
    p.looked = true;
    p.alive = reply->alive;
    p.runDirExists = reply->runDirExists;
    for (long long pid : reply->pids) p.pids << pid;
    for (long long pid : reply->signalled) p.signalled << pid;
    p.startTime = reply->startTime;
    return p;
}

void noteSupervisorProcess(AttachTarget* target, qint64 pid, SshConnection* conn)
{
    if (pid <= 1 || target->transport == AttachTarget::Transport::Slurm) return;
    target->supervisorPid = pid;
    target->supervisorStartTime = -1;
    if (const Result<SupervisorProcess> found = signalSupervisor(*target, SupervisorSignal::None, conn);
        found && found.value().pids == QList<qint64>{pid})
        target->supervisorStartTime = found.value().startTime;
}

store::RunUpdate goneRunUpdate(qint64 runId, const AttachTarget& target, const SupervisorProcess& found)
{
    store::RunUpdate u;
    u.runId = runId;
    const bool stopped = !found.signalled.isEmpty();
    u.status = stopped ? store::RunStatus::Cancelled : store::RunStatus::Failed;
    u.reason = QStringLiteral("the run directory %1 is gone").arg(runDirLabel(target)) +
               (stopped ? QStringLiteral("; the supervisor (pid %1) was stopped").arg(pidList(found.signalled))
                        : QStringLiteral(" and no supervisor of it runs"));
    u.endedAt = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    return u;
}

Result<QString> stopDetachedRun(const AttachTarget& target, bool kill, SupervisorProcess* byProcess)
{
    if (target.transport == AttachTarget::Transport::Slurm) return stopSlurmRun(target.slurmJob, target.runDir, kill);
    QByteArrayList args = {"stop"};
    if (kill) args << "--kill";
    const QByteArrayList argv = superviseCommand(target, args);
    QByteArray output;
    int status = -1;
    const QString error = target.transport == AttachTarget::Transport::Local ? runLocally(target, argv, &output, &status)
                                                                            : runOverSsh(target, argv, &output, &status);
    const QString words = QString::fromUtf8(output.trimmed());
    if (!error.isEmpty()) return qtError(error);
    if (status != 0) return qtError(words.isEmpty() ? QStringLiteral("shardbench-supervise stop exited with %1").arg(status) : words);
    if (!words.startsWith(QLatin1String("not running"))) return words;
    // No lock says it runs: its run directory may be gone while the supervisor and its ranks train on.
    const Result<SupervisorProcess> signalled = signalSupervisor(target, kill ? SupervisorSignal::Kill : SupervisorSignal::Term);
    const QString why = qtMessage(signalled);
    if (why.contains(QLatin1String("unknown command \"signal\""))) return words; // an older supervisor: it cannot tell
    if (!signalled) return qtError(QStringLiteral("%1; looking for its supervisor by process: %2").arg(words, why));
    const SupervisorProcess& p = signalled.value();
    if (byProcess) *byProcess = p;
    if (!p.signalled.isEmpty())
        return QString((p.runDirExists ? QStringLiteral("its supervisor held no lock in %1").arg(runDirLabel(target))
                                       : QStringLiteral("the run directory %1 is gone").arg(runDirLabel(target))) +
                       QStringLiteral("; the supervisor (pid %1) was stopped").arg(pidList(p.signalled)));
    if (!p.runDirExists) return QStringLiteral("not running: the run directory %1 is gone and no supervisor of it runs").arg(runDirLabel(target));
    return words;
}

} // namespace sb::launch
