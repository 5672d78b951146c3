#include "slurm_job.hpp"

#include "json/json.hpp"
#include "protocol/run_dir_layout.hpp"
#include "protocol/run_state.hpp"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QThread>

namespace sb::launch {

namespace {

struct Ran {
    QString error;      // could not run, or did not finish
    int code = -1;
    QByteArray out, err;
};

// The environment sbatch passes to the job (--export=ALL), less an
// allocation's SLURM_* variables when launched inside one: the job's own
// srun steps would read them as options (SLURM_CPUS_PER_TASK, SLURM_DISTRIBUTION, ...).
QProcessEnvironment jobEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : env.keys())
        if (name.startsWith(QLatin1String("SLURM_")) && name != QLatin1String("SLURM_CONF")) env.remove(name);
    return env;
}

Ran runSlurm(const QString& program, const QStringList& args, const QString& workdir = {}, bool forJob = false)
{
    Ran r;
    QProcess p;
    if (forJob) p.setProcessEnvironment(jobEnvironment());
    if (!workdir.isEmpty()) p.setWorkingDirectory(workdir);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        r.error = QStringLiteral("cannot run %1: %2 (is Slurm's client installed and on PATH?)").arg(program, p.errorString());
        return r;
    }
    if (!p.waitForFinished(kSlurmCommandMs)) {
        p.kill();
        p.waitForFinished(2000);
        r.error = QStringLiteral("%1 did not answer within %2 s").arg(program).arg(kSlurmCommandMs / 1000);
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString said(const Ran& r)
{
    const QString text = QString::fromUtf8(QByteArray(r.err + r.out).trimmed()).left(2000);
    return text.isEmpty() ? QStringLiteral("exit %1").arg(r.code) : text;
}

} // namespace

qint64 parseSbatchJobId(const QByteArray& output)
{
    const QByteArray first = output.trimmed().split('\n').value(0).split(';').value(0).trimmed();
    bool ok = false;
    const qint64 id = first.toLongLong(&ok);
    return ok && id > 0 ? id : -1;
}

Result<qint64> submitHeldJob(const QString& script, const QString& workdir)
{
    const Ran r = runSlurm(QStringLiteral("sbatch"), {QStringLiteral("--parsable"), QStringLiteral("--hold"), script}, workdir, true);
    if (!r.error.isEmpty()) return qtError(r.error);
    const qint64 id = r.code == 0 ? parseSbatchJobId(r.out) : -1;
    if (id < 0) return qtError(QStringLiteral("sbatch refused the job: ") + said(r));
    return id;
}

Status releaseJob(qint64 jobId)
{
    const Ran r = runSlurm(QStringLiteral("scontrol"), {QStringLiteral("release"), QString::number(jobId)});
    if (!r.error.isEmpty()) return qtError(r.error);
    return r.code == 0 ? Status() : qtError(QStringLiteral("scontrol release %1: %2").arg(jobId).arg(said(r)));
}

Status cancelJob(qint64 jobId, bool kill)
{
    QStringList args = {QStringLiteral("--batch"), kill ? QStringLiteral("--signal=USR1") : QStringLiteral("--signal=INT")};
    args << QString::number(jobId);
    const Ran r = runSlurm(QStringLiteral("scancel"), args);
    if (!r.error.isEmpty()) return qtError(r.error);
    return r.code == 0 ? Status() : qtError(QStringLiteral("scancel %1: %2").arg(args.join(QLatin1Char(' ')), said(r)));
}

Status withdrawJob(qint64 jobId)
{
    const Ran r = runSlurm(QStringLiteral("scancel"), {QString::number(jobId)});
    if (!r.error.isEmpty()) return qtError(r.error);
    return r.code == 0 ? Status() : qtError(QStringLiteral("scancel %1: %2").arg(jobId).arg(said(r)));
}

SlurmJobState::Phase phaseOfState(const QString& state)
{
    using P = SlurmJobState::Phase;
    const QString s = state.section(QLatin1Char(' '), 0, 0).toUpper(); // sacct: "CANCELLED by 0"
    if (s == QLatin1String("PENDING") || s == QLatin1String("CONFIGURING") || s == QLatin1String("REQUEUED") ||
        s == QLatin1String("REQUEUE_HOLD") || s == QLatin1String("REQUEUE_FED") || s == QLatin1String("RESV_DEL_HOLD"))
        return P::Queued;
    if (s == QLatin1String("RUNNING") || s == QLatin1String("SUSPENDED") || s == QLatin1String("STOPPED") ||
        s == QLatin1String("SIGNALING") || s == QLatin1String("STAGE_OUT") || s == QLatin1String("RESIZING"))
        return P::Running;
    if (s.isEmpty()) return P::Unknown;
    return P::Ended; // COMPLETING, COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, PREEMPTED, ...
}

SlurmJobState parseSqueueLine(const QString& line)
{
    SlurmJobState s;
    const QStringList f = line.trimmed().split(QLatin1Char('|'));
    s.state = f.value(0).trimmed();
    s.reason = f.value(1).trimmed();
    if (s.reason == QLatin1String("None") || s.reason == QLatin1String("(null)")) s.reason.clear();
    s.batchHost = f.value(2).trimmed();
    if (s.batchHost == QLatin1String("(null)") || s.batchHost == QLatin1String("n/a")) s.batchHost.clear();
    s.phase = phaseOfState(s.state);
    return s;
}

QString SlurmJobState::describe(qint64 jobId) const
{
    if (phase == Phase::NotFound) return QStringLiteral("Slurm job %1 is unknown to Slurm (squeue and sacct)").arg(jobId);
    if (phase == Phase::Unknown) return QStringLiteral("the state of Slurm job %1 is unknown: %2").arg(jobId).arg(error);
    return QStringLiteral("Slurm job %1 is %2").arg(jobId).arg(state) +
           (reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
}

SlurmJobState querySlurmJob(qint64 jobId)
{
    const QString job = QString::number(jobId);
    const Ran q = runSlurm(QStringLiteral("squeue"), {QStringLiteral("--noheader"), QStringLiteral("--states=all"), QStringLiteral("--jobs=") + job,
                                                      QStringLiteral("--format=%T|%r|%B")});
    if (!q.error.isEmpty()) return SlurmJobState{SlurmJobState::Phase::Unknown, {}, {}, {}, q.error};
    const QString line = QString::fromUtf8(q.out).trimmed().section(QLatin1Char('\n'), 0, 0);
    if (q.code == 0 && !line.isEmpty()) return parseSqueueLine(line);
    const bool unknownToSqueue = q.code == 0 || q.err.contains("Invalid job id");
    if (!unknownToSqueue) return SlurmJobState{SlurmJobState::Phase::Unknown, {}, {}, {}, QStringLiteral("squeue: ") + said(q)};
    // Gone from slurmctld's memory (MinJobAge): accounting may still know it.
    const Ran a = runSlurm(QStringLiteral("sacct"), {QStringLiteral("--noheader"), QStringLiteral("--parsable2"), QStringLiteral("--allocations"),
                                                     QStringLiteral("--jobs=") + job, QStringLiteral("--format=State,Reason")});
    const QString acct = QString::fromUtf8(a.out).trimmed().section(QLatin1Char('\n'), 0, 0);
    if (a.error.isEmpty() && a.code == 0 && !acct.isEmpty()) {
        SlurmJobState s = parseSqueueLine(acct);
        if (s.phase != SlurmJobState::Phase::Unknown) return s;
    }
    SlurmJobState s;
    s.phase = SlurmJobState::Phase::NotFound;
    return s;
}

Result<QString> stopSlurmRun(qint64 jobId, const QString& runDir, bool kill)
{
    SlurmJobState job = querySlurmJob(jobId);
    if (job.phase == SlurmJobState::Phase::Unknown || job.phase == SlurmJobState::Phase::NotFound) return qtError(job.describe(jobId));
    if (job.phase == SlurmJobState::Phase::Ended) return QStringLiteral("not running (%1)").arg(job.describe(jobId));
    const bool queued = job.phase == SlurmJobState::Phase::Queued;
    // A queued job has no supervisor to tell: Slurm withdraws it.
    if (const Status e = queued ? withdrawJob(jobId) : cancelJob(jobId, kill); !e) return e;
    const QDeadlineTimer deadline(120000);
    while (!deadline.hasExpired()) {
        job = querySlurmJob(jobId);
        if (job.phase == SlurmJobState::Phase::Ended || job.phase == SlurmJobState::Phase::NotFound) break;
        QThread::msleep(500);
    }
    if (job.phase != SlurmJobState::Phase::Ended && job.phase != SlurmJobState::Phase::NotFound)
        return qtError(QStringLiteral("%1 two minutes after scancel").arg(job.describe(jobId)));
    // How the supervisor recorded the end, read as every client reads state.json (core/protocol).
    QString status;
    QFile f(runDir + QLatin1Char('/') + QLatin1String(protocol::kStateFile));
    if (f.open(QIODevice::ReadOnly))
        if (const json::ParseResult parsed = json::parse(f.read(16 << 20).toStdString()); parsed)
            if (const Result<protocol::RunState> state = protocol::readRunState(*parsed.value, f.fileName().toStdString(), "update shardbench"))
                status = QString::fromStdString(state.value().status);
    return queued ? QStringLiteral("withdrew Slurm job %1 from the queue").arg(jobId)
                  : QStringLiteral("stopped (%1; %2)").arg(status.isEmpty() ? QStringLiteral("no state recorded") : status, job.describe(jobId));
}

} // namespace sb::launch
