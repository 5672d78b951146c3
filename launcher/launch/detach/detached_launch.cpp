#include "detached_launch.hpp"

#include "../failure_analysis.hpp"
#include "../run_recorder.hpp"
#include "../shell_quote.hpp"
#include "../slurm/sbatch_script.hpp"
#include "../slurm/slurm_job.hpp"
#include "../ssh/remote_command.hpp"
#include "../ssh/ssh_connection.hpp"
#include "detached_control.hpp"

#include "protocol/run_limits.hpp"
#include "supervisor/run_dir.hpp"
#include "util/atomic_file.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <cerrno>
#include <functional>

namespace sb::launch {

namespace {

double now() { return QDateTime::currentMSecsSinceEpoch() / 1000.0; }

std::string s(const QString& q) { return q.toStdString(); }
std::string s(const QByteArray& b) { return b.toStdString(); }

// Where `path` lives: "/scratch (tmpfs)", the mount point and type of the
// longest mount point above it (/proc/self/mountinfo); "" when unknown.
QString fileSystemOf(const QString& path)
{
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString target = QFileInfo(path).absoluteFilePath() + QLatin1Char('/');
    QString best, type;
    for (const QByteArray& line : f.readAll().split('\n')) {
        // ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS
        const QList<QByteArray> fields = line.split(' ');
        const qsizetype dash = fields.indexOf("-");
        if (fields.size() < 5 || dash < 0 || dash + 1 >= fields.size()) continue;
        QByteArray point = fields[4];
        point.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
        const QString mount = QString::fromUtf8(point);
        const QString prefix = mount.endsWith(QLatin1Char('/')) ? mount : mount + QLatin1Char('/');
        if (target.startsWith(prefix) && mount.size() >= best.size()) {
            best = mount;
            type = QString::fromUtf8(fields[dash + 1]);
        }
    }
    return best.isEmpty() ? QString() : QStringLiteral("%1 (%2)").arg(best, type);
}

// Owner-only, as the SFTP copies are: the spec holds the ranks' environment (--env values).
// Every write is checked (a buffered write's full disk shows only at its
// flush, which QSaveFile::commit() does not report): a full disk is named
// as such, never left as an empty file for the supervisor to misread.
QString writeLocalFile(const QString& dir, const QString& name, const QByteArray& data)
{
    const QString path = dir + QLatin1Char('/') + name;
    const Status written = writeFileAtomic(path.toStdString(), std::string_view(data.constData(), static_cast<std::size_t>(data.size())), 0600);
    if (written.ok()) return {};
    const int err = errno;
    const QString why = QString::fromStdString(written.message());
    if (err != ENOSPC && err != EDQUOT) return why;
    const QString fs = fileSystemOf(dir);
    return QStringLiteral("%1 on %2 for the run directory %3: %4")
        .arg(err == ENOSPC ? QStringLiteral("no space left") : QStringLiteral("disk quota exceeded"),
             fs.isEmpty() ? QStringLiteral("its file system") : fs, dir, why);
}

// Writes the run directory's files in order; on a failure removes what it wrote and the folder (when empty).
QString writeRunFiles(const QString& dir, const QList<QPair<QString, QByteArray>>& files)
{
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString err = writeLocalFile(dir, files[i].first, files[i].second);
        if (err.isEmpty()) continue;
        for (qsizetype k = 0; k < i; ++k) QFile::remove(dir + QLatin1Char('/') + files[k].first);
        QDir().rmdir(dir);
        return err;
    }
    return {};
}

// "started PID" from shardbench-supervise start.
qint64 startedPid(const QByteArray& out)
{
    const QByteArray line = out.trimmed();
    return line.startsWith("started ") ? line.mid(8).toLongLong() : -1;
}

std::vector<std::string> headSshCommand(const HostSpec& host, const QString& config)
{
    // Whatever the head's configuration says, an unknown or changed host key is refused.
    using namespace limits;
    std::vector<std::string> argv = {"ssh", "-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                                     "-o", "ServerAliveInterval=" + std::to_string(kKeepaliveS),
                                     "-o", "ServerAliveCountMax=" + std::to_string(kLivenessTimeoutS / kKeepaliveS),
                                     "-o", "ConnectTimeout=" + std::to_string(kConnectTimeoutS)};
    if (!config.isEmpty()) {
        argv.push_back("-F");
        argv.push_back(s(config));
    }
    argv.push_back(s(host.name));
    return argv;
}

// Called once the run directory is ready and before the supervisor starts,
// so that no run can exist without its record; false: do not start.
using RecordRun = std::function<bool(const AttachTarget&)>;

QString startLocal(const PreparedLaunch& l, const LocalTarget& here, const DetachOptions& o, const RecordRun& record,
                   DetachedRun* run)
{
    const QString root = QDir(o.runRoot).absolutePath();
    const QString dir = root + QLatin1Char('/') + l.uid;
    if (!QDir().mkpath(dir)) return QStringLiteral("cannot create the run directory %1").arg(dir);
    const QString planPath = dir + QLatin1Char('/') + QLatin1String(protocol::kPlanFile);
    const QString workdir = here.workdir.isEmpty() ? QDir::currentPath() : QDir(here.workdir).absolutePath();
    const supervise::RunSpec spec = runSpecFor(l, planPath, here.corePath, workdir);
    const QString err = writeRunFiles(dir, shippedFiles(l) << QPair<QString, QByteArray>{QLatin1String(protocol::kSpecFile),
                                                                         QByteArray::fromStdString(supervise::runSpecToJson(spec))});
    if (!err.isEmpty()) return err;
    run->target.transport = AttachTarget::Transport::Local;
    run->target.runDir = dir;
    run->target.supervise = o.supervise;
    if (!record(run->target)) return {};
    QProcess p;
    p.start(o.supervise, {QStringLiteral("start"), dir});
    if (!p.waitForStarted(10000)) return QStringLiteral("cannot run %1: %2").arg(o.supervise, p.errorString());
    p.waitForFinished(30000);
    run->supervisorPid = startedPid(p.readAllStandardOutput());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0 || run->supervisorPid <= 0)
        return QStringLiteral("the supervisor did not start: %1").arg(QString::fromUtf8(p.readAllStandardError().trimmed()));
    noteSupervisorProcess(&run->target, run->supervisorPid); // `stop` finds it should its directory go
    return {};
}

QString startSsh(const PreparedLaunch& l, const SshTarget& target, const DetachOptions& o, HostKeyPolicy& policy,
                 const RecordRun& record, DetachedRun* run)
{
    SshConnection conn;
    HostKeyInfo key;
    if (const Status opened = conn.open(l.hosts[0], target.ssh, policy, &key); !opened) return qtMessage(opened);
    QString err;
    QString remoteDir = target.remoteDir;
    while (remoteDir.size() > 1 && remoteDir.endsWith(QLatin1Char('/'))) remoteDir.chop(1);
    QString dir;
    for (const auto& [name, bytes] : shippedFiles(l)) {
        const Result<QString> uploaded = conn.upload(remoteDir + QLatin1Char('/') + l.uid, name, bytes);
        if (!uploaded) return qtMessage(uploaded);
        dir = uploaded.value();
    }
    // The head node checks the initial weights, as its ranks would read them, before anything starts
    // (the core does; a script reads its weights itself).
    if (!l.config.initFrom.isEmpty() && l.config.engine == Engine::Core) {
        const Result<QByteArray> check =
            buildCheckInitFromCommand(target.remoteWorkdir, target.remoteCore, dir + QLatin1Char('/') + QLatin1String(protocol::kPlanFile), l.config.initFrom);
        QByteArray out;
        int status = -1;
        err = check ? qtMessage(conn.run(check.value(), &out, &status, 120000)) : qtMessage(check);
        if (err.isEmpty()) err = qtMessage(initFromChecked(l.hosts[0].name, l.config.initFrom, status, out));
        if (!err.isEmpty()) return err;
    }
    const QString program = o.supervise.isEmpty() ? defaultRemoteSupervise(target.remoteCore) : o.supervise;
    supervise::RunSpec spec = runSpecFor(l, dir + QLatin1Char('/') + QLatin1String(protocol::kPlanFile), target.remoteCore, target.remoteWorkdir);
    // The head node reaches the other hosts with its own OpenSSH client; the
    // rendezvous is on the head, at the address this machine reached it by.
    if (l.config.masterAddr.isEmpty()) spec.masterAddr = s(conn.hostname());
    for (std::size_t h = 1; h < spec.hosts.size(); ++h) spec.hosts[h].ssh = headSshCommand(l.hosts[static_cast<int>(h)], o.headSshConfig);
    if (const Result<QString> uploaded = conn.upload(dir, QLatin1String(protocol::kSpecFile), QByteArray::fromStdString(supervise::runSpecToJson(spec)));
        !uploaded)
        return qtMessage(uploaded);
    run->target.transport = AttachTarget::Transport::Ssh;
    run->target.runDir = dir;
    run->target.supervise = program;
    run->target.host = l.hosts[0];
    run->target.ssh = target.ssh;
    if (!record(run->target)) return {};
    const Result<QByteArray> cmd = shellCommand(superviseCommand(run->target, {"start"}));
    if (!cmd) return qtMessage(cmd);
    QByteArray out;
    int status = -1;
    err = qtMessage(conn.run(cmd.value() + " 2>&1", &out, &status, 30000));
    if (!err.isEmpty()) return err;
    run->supervisorPid = startedPid(out);
    if (status != 0 || run->supervisorPid <= 0)
        return QStringLiteral("%1: the supervisor did not start (exit %2): %3")
            .arg(l.hosts[0].name)
            .arg(status)
            .arg(QString::fromUtf8(out.trimmed().left(2000)));
    noteSupervisorProcess(&run->target, run->supervisorPid, &conn); // `stop` finds it should its directory go
    return {};
}

// The job is submitted held, recorded with its id, then released: no job
// runs without its record, and none is left queued when recording fails.
QString startSlurm(const PreparedLaunch& l, const SlurmTarget& slurm, const DetachOptions& o, const RecordRun& record,
                   DetachedRun* run, QString* script)
{
    // The nodes see it at the same path (a shared file system), so a missing one is missing there too.
    if (o.supervise.contains(QLatin1Char('/')) && !QFileInfo(o.supervise).isExecutable())
        return QStringLiteral("shardbench-supervise not found at %1 (build it, or give --supervise PATH)").arg(o.supervise);
    const QString workdir = QDir(slurm.workdir.isEmpty() ? QDir::currentPath() : slurm.workdir).absolutePath();
    const QString dir = slurmRunRoot(l, o.runRoot) + QLatin1Char('/') + l.uid;
    if (!QDir().mkpath(dir)) return QStringLiteral("cannot create the run directory %1").arg(dir);
    const QString planPath = dir + QLatin1Char('/') + QLatin1String(protocol::kPlanFile);
    supervise::RunSpec spec = runSpecFor(l, planPath, slurm.corePath, workdir);
    spec.slurm = true;
    spec.gpusPerNode = l.cuda ? l.procsPerNode : 0;
    spec.masterAddr = s(l.config.masterAddr); // "": rank 0's node, once the job has nodes
    const Result<QString> batch = sbatchScript(l, dir, o.supervise);
    if (!batch) return qtMessage(batch);
    *script = batch.value();
    const QString scriptPath = dir + QStringLiteral("/job.sbatch");
    QString err = writeRunFiles(dir, shippedFiles(l) << QPair<QString, QByteArray>{QLatin1String(protocol::kSpecFile),
                                                                           QByteArray::fromStdString(supervise::runSpecToJson(spec))}
                                             << QPair<QString, QByteArray>{QStringLiteral("job.sbatch"), script->toUtf8()});
    if (!err.isEmpty()) return err;
    const Result<qint64> submitted = submitHeldJob(scriptPath, dir);
    if (!submitted) return qtMessage(submitted);
    const qint64 job = submitted.value();
    run->target.transport = AttachTarget::Transport::Slurm;
    run->target.runDir = dir;
    run->target.supervise = o.supervise;
    run->target.slurmJob = job;
    // A job withdrawn in vain stays held in the queue: named, for a person to scancel.
    auto withdraw = [job] {
        const Status w = withdrawJob(job);
        return w ? QString() : QStringLiteral("Slurm job %1 stays held in the queue: %2").arg(job).arg(qtMessage(w));
    };
    if (!record(run->target)) return withdraw(); // the record's own error says why
    if (const Status released = releaseJob(job); !released) {
        const QString left = withdraw();
        return left.isEmpty() ? qtMessage(released) : qtMessage(released) + QStringLiteral("; ") + left;
    }
    return {};
}

} // namespace

supervise::RunSpec runSpecFor(const PreparedLaunch& l, const QString& planPath, const QString& program, const QString& workdir)
{
    supervise::RunSpec spec;
    spec.runId = s(l.uid);
    spec.name = s(l.config.name);
    spec.worldSize = l.worldSize;
    spec.maxRestarts = l.config.maxRestarts;
    spec.stopGraceMs = l.config.stopGraceMs;
    spec.masterAddr = l.config.masterAddr.isEmpty() ? std::string("127.0.0.1") : s(l.config.masterAddr);
    spec.masterPort = l.config.masterPort;
    spec.workdir = s(workdir);
    const RankProgram rank = rankProgram(l, program, planPath, AttemptSpec{});
    spec.program = s(rank.program);
    for (const QByteArray& a : rank.arguments) spec.args.push_back(s(a));
    spec.resumeArgument = takesResumeArgument(l);
    spec.resumeFrom = s(l.config.resumeFrom);
    for (const HostSpec& h : l.hosts) spec.hosts.push_back({s(h.name), {}});
    // The supervisor sets what changes per attempt.
    static const QByteArray perAttempt[] = {"MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RESTART_COUNT"};
    for (const RankSlot& slot : l.ranks) {
        supervise::RankSpec r;
        r.rank = slot.rank;
        r.host = slot.hostIndex;
        for (const auto& [name, value] : rankEnvironment(l, slot, AttemptSpec{})) {
            if (std::find(std::begin(perAttempt), std::end(perAttempt), name) != std::end(perAttempt)) continue;
            r.env.emplace_back(s(name), s(value));
        }
        spec.ranks.push_back(std::move(r));
    }
    return spec;
}

QString defaultRemoteSupervise(const QString& remoteCore)
{
    const qsizetype slash = remoteCore.lastIndexOf(QLatin1Char('/'));
    if (slash < 0) return QStringLiteral("shardbench-supervise");
    return remoteCore.left(slash + 1) + QStringLiteral("shardbench-supervise");
}

DetachOptions defaultDetachOptions(const PreparedLaunch& l, const QString& storePath)
{
    DetachOptions o;
    if (!std::holds_alternative<SlurmTarget>(l.config.target)) o.runRoot = QFileInfo(storePath).absolutePath() + QStringLiteral("/runs");
    if (const HereCore* here = hereCore(l.config.target)) {
        const QString supervise = QStringLiteral("shardbench-supervise");
        o.supervise = here->corePath.contains(QLatin1Char('/'))
                          ? QFileInfo(here->corePath).absoluteDir().absoluteFilePath(supervise)
                          : supervise;
    }
    return o;
}

Status launchDetached(const PreparedLaunch& l, const DetachOptions& o, store::RunStore& store, HostKeyPolicy& policy,
                      DetachedRun* out)
{
    store::NewRun row = newRunRecord(l);
    DetachedRun run;
    QString recordError;
    const RecordRun record = [&](const AttachTarget& target) {
        row.runDir = target.runDir;
        row.attachJson = target.toJson();
        const Result<qint64> id = store.createRun(row);
        if (!id) recordError = QStringLiteral("cannot record the run: ") + qtMessage(id);
        run.runId = id ? id.value() : -1;
        return bool(id);
    };
    QString script;
    QString err;
    if (const auto* local = std::get_if<LocalTarget>(&l.config.target)) err = startLocal(l, *local, o, record, &run);
    else if (const auto* slurm = std::get_if<SlurmTarget>(&l.config.target)) err = startSlurm(l, *slurm, o, record, &run, &script);
    else err = startSsh(l, std::get<SshTarget>(l.config.target), o, policy, record, &run);
    if (!recordError.isEmpty()) return qtError(err.isEmpty() ? recordError : recordError + QStringLiteral("; ") + err); // nothing was started
    if (!err.isEmpty() && run.runId < 0) {
        // It failed before its directory was ready: recorded as a failed launch.
        row.runDir = QStringLiteral("-");
        row.attachJson = run.target.toJson();
        const Result<qint64> id = store.createRun(row);
        if (!id) return qtError(QStringLiteral("cannot record the run: ") + qtMessage(id));
        run.runId = id.value();
    }
    if (err.isEmpty() && !script.isEmpty()) {
        // The store keeps the script too: the run directory may be cleaned up long before the record.
        store::LogRecord log;
        log.runId = run.runId;
        log.t = now();
        log.stream = store::LogStream::Launcher;
        log.line = QStringLiteral("Slurm job %1, batch script %2/job.sbatch:\n").arg(run.target.slurmJob).arg(run.target.runDir) + script;
        store.addLog(log);
    }
    if (err.isEmpty() && run.target.supervisorPid > 0) {
        store::RunUpdate u;
        u.runId = run.runId;
        u.attachJson = run.target.toJson();
        store.updateRun(u);
    }
    if (!err.isEmpty()) {
        store::RunUpdate u;
        u.runId = run.runId;
        u.status = store::RunStatus::Failed;
        recordReason(u, codedReason({FailureCode::LaunchFailed, {err.toStdString()}}));
        u.endedAt = now();
        store.updateRun(u);
    }
    *out = run;
    if (const Status stored = store.flush(); !stored) {
        // The run goes on (or failed) all the same: say where, and that its record is incomplete.
        const QString why = QStringLiteral("the run store could not record run %1 in full: %2").arg(run.runId).arg(qtMessage(stored));
        return qtError(err.isEmpty() ? QStringLiteral("%1 (the run goes on in %2)").arg(why, run.target.runDir) : err + QStringLiteral("; ") + why);
    }
    return err.isEmpty() ? Status() : qtError(err);
}

} // namespace sb::launch
