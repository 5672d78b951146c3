#include "detached_control.hpp"

#include "../shell_quote.hpp"
#include "../slurm/slurm_job.hpp"
#include "../ssh/ssh_connection.hpp"

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

QString runOverSsh(const AttachTarget& target, const QByteArrayList& argv, QByteArray* output, int* status)
{
    FixedHostKeyPolicy policy(HostKeyDecision::Reject); // the launch verified the host
    SshConnection conn;
    HostKeyInfo key;
    QString error = conn.open(target.host, target.ssh, policy, &key);
    const QByteArray cmd = error.isEmpty() ? shellCommand(argv, &error) + " 2>&1" : QByteArray();
    if (error.isEmpty()) error = conn.run(cmd, output, status, kStopWaitMs);
    return error;
}

} // namespace

std::unique_ptr<AttachSession> openAttachSession(const QString& dbPath, store::RunStore& store, qint64 runId,
                                                 HostKeyPolicy* policy, const AttachOptions& options, QString* error,
                                                 store::RunRow* row, QObject* parent)
{
    auto reader = store::RunReader::open(dbPath, error);
    if (!reader) return nullptr;
    std::optional<store::RunRow> run = reader->run(runId);
    if (!run) {
        *error = reader->lastError();
        return nullptr;
    }
    if (!run->isDetached()) {
        *error = QStringLiteral("run %1 was not launched detached (its launcher supervised it)").arg(runId);
        return nullptr;
    }
    AttachTarget target;
    if (const QString why = AttachTarget::fromJson(run->attachJson, &target); !why.isEmpty()) {
        *error = QStringLiteral("run %1: %2").arg(runId).arg(why);
        return nullptr;
    }
    if (row) *row = *run;
    return std::make_unique<AttachSession>(store, *run, target, policy, options, reader->ingestOffsets(runId),
                                           reader->logLineCounts(runId), reader->eventBytes(runId), parent);
}

QString stopDetachedRun(const AttachTarget& target, bool kill, QString* said)
{
    if (target.transport == AttachTarget::Transport::Slurm) return stopSlurmRun(target.slurmJob, target.runDir, kill, said);
    QByteArrayList args = {"stop"};
    if (kill) args << "--kill";
    const QByteArrayList argv = superviseCommand(target, args);
    QByteArray output;
    int status = -1;
    const QString error = target.transport == AttachTarget::Transport::Local ? runLocally(target, argv, &output, &status)
                                                                            : runOverSsh(target, argv, &output, &status);
    const QString words = QString::fromUtf8(output.trimmed());
    if (!error.isEmpty()) return error;
    if (status != 0) return words.isEmpty() ? QStringLiteral("shardbench-supervise stop exited with %1").arg(status) : words;
    if (said) *said = words;
    return {};
}

} // namespace sb::launch
