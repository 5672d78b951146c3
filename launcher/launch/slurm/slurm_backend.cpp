#include "slurm_backend.hpp"

#include "engine/slurm_port.hpp"

#include "srun_command.hpp"

#include "events/core_event.hpp"
#include "events/event_line.hpp"

#include <QDir>
#include <QSaveFile>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace sb::launch {

namespace {
// Tasks that die together (one killed, its peers failing at once) reach srun
// in one batch per node, in no particular order. A stop waits this long
// before interrupting srun, so that an exit that came before the stop is not
// taken for one the stop caused.
constexpr int kSettleMs = 500;
constexpr int kSecondInterruptMs = 300; // srun aborts on a second SIGINT within a second
} // namespace

SlurmBackend::SlurmBackend(QObject* parent)
    : Backend(parent),
      reader_({[this](int task, OutputStream stream, QByteArray line, bool truncated) {
                   onTaskLine(task, stream, std::move(line), truncated);
               },
               [this](const SrunMessage& m) { onSrunMessage(m); }})
{
    for (QTimer* t : {&firstInterrupt_, &secondInterrupt_, &graceTimer_, &deadlineTimer_}) t->setSingleShot(true);
    connect(&firstInterrupt_, &QTimer::timeout, this, [this] {
        interrupted_ = true;
        interruptSrun();
        secondInterrupt_.start(kSecondInterruptMs);
    });
    connect(&secondInterrupt_, &QTimer::timeout, this, &SlurmBackend::interruptSrun);
    connect(&graceTimer_, &QTimer::timeout, this, &SlurmBackend::kill);
    connect(&deadlineTimer_, &QTimer::timeout, this, &SlurmBackend::giveUp);
    connect(&canceller_, &JobCanceller::message, this, &Backend::progress);
    connect(&canceller_, &JobCanceller::done, this, &SlurmBackend::maybeFinish);
    connect(&srun_, &QProcess::readyReadStandardOutput, this, &SlurmBackend::readStdout);
    connect(&srun_, &QProcess::readyReadStandardError, this, &SlurmBackend::readStderr);
    connect(&srun_, &QProcess::finished, this, &SlurmBackend::onSrunFinished);
    connect(&srun_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) onStartError();
    });
}

SlurmBackend::~SlurmBackend()
{
    srun_.disconnect(this);
    canceller_.disconnect(this);
    if (srun_.state() != QProcess::NotRunning) {
        ::kill(static_cast<pid_t>(srun_.processId()), SIGKILL);
        if (jobId_ >= 0 && !cancelRequested_) canceller_.cancel(jobId_, step_, ownAllocation_);
        srun_.waitForFinished(2000);
    }
    canceller_.wait(5000);
}

Result<QString> SlurmBackend::copyPlan(const QString& workdir) const
{
    const QString dir = QDir(workdir).filePath(QStringLiteral(".shardbench/runs/") + launch_.uid);
    for (const auto& [name, bytes] : shippedFiles(launch_)) {
        const QString path = dir + QLatin1Char('/') + name;
        QSaveFile f(path);
        if (!QDir().mkpath(dir) || !f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
            return qtError(QStringLiteral("cannot copy the plan to %1: %2").arg(path, f.errorString()));
    }
    return QString(dir + QStringLiteral("/plan.json"));
}

void SlurmBackend::start(const PreparedLaunch& launch, const AttemptSpec& attempt)
{
    launch_ = launch;
    attempt_ = attempt;
    graceMs_ = launch.config.stopGraceMs;
    deadlineMs_ = launch.config.stopDeadlineMs;
    exited_ = QList<bool>(launch.worldSize, false);
    started_ = QList<bool>(launch.worldSize, false);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Inside an allocation (salloc, sbatch) srun makes a step of it: never cancel that job.
    ownAllocation_ = !env.contains(QStringLiteral("SLURM_JOB_ID"));
    const SlurmTarget& slurm = std::get<SlurmTarget>(launch.config.target);
    const QString workdir = QDir(slurm.workdir.isEmpty() ? QDir::currentPath() : slurm.workdir).absolutePath();
    const Result<QString> plan = copyPlan(workdir);
    if (!plan) {
        srunDone_ = true;
        Q_EMIT launchFailed(qtMessage(plan), 0);
        QMetaObject::invokeMethod(this, &SlurmBackend::maybeFinish, Qt::QueuedConnection);
        return;
    }
    srun_.setProgram(QStringLiteral("srun"));
    srun_.setArguments(srunArguments(launch, attempt, plan.value(), workdir));
    srun_.setProcessEnvironment(srunEnvironment(launch, attempt, env));
    srun_.setWorkingDirectory(workdir);
    srun_.setStandardInputFile(QProcess::nullDevice());
    const pid_t launcher = ::getpid();
    srun_.setChildProcessModifier([launcher] {
        ::setpgid(0, 0); // a terminal's Ctrl-C reaches the launcher, not srun
#ifdef __linux__
        ::prctl(PR_SET_PDEATHSIG, SIGTERM); // srun cancels its step on SIGTERM
        if (::getppid() != launcher) ::_exit(1);
#endif
    });
    const SlurmOptions& o = slurm.options;
    Q_EMIT progress(QStringLiteral("srun: job \"%1\", %2 node(s) x %3 task(s)%4; plan copied to %5")
                        .arg(slurmJobName(launch.config.name))
                        .arg(launch.nodes)
                        .arg(launch.procsPerNode)
                        .arg(o.partition.isEmpty() ? QString() : QStringLiteral(", partition ") + o.partition, plan.value()));
    srun_.start();
}

void SlurmBackend::readStdout() { reader_.feed(OutputStream::Stdout, srun_.readAllStandardOutput()); }

void SlurmBackend::readStderr() { reader_.feed(OutputStream::Stderr, srun_.readAllStandardError()); }

void SlurmBackend::onTaskLine(int task, OutputStream stream, QByteArray line, bool truncated)
{
    if (task < 0 || task >= launch_.worldSize) {
        Q_EMIT progress(QStringLiteral("srun: output of task %1, which is not a rank: %2").arg(task).arg(QString::fromUtf8(line.left(200))));
        return;
    }
    ranksRunning();
    // The core's hello gives the pid a rank has on its node.
    if (stream == OutputStream::Stdout && !started_[task] && line.startsWith(protocol::kEventPrefix)) {
        const protocol::ParsedLine p = protocol::parseOutputLine(line);
        if (const auto hello = p.kind == protocol::ParsedLine::Event ? protocol::eventAs<protocol::Hello>(p.event) : std::nullopt) {
            started_[task] = true;
            Q_EMIT rankStarted(task, hello->pid);
        }
    }
    Q_EMIT rankOutput(task, stream, line, truncated);
}

void SlurmBackend::onSrunMessage(const SrunMessage& m)
{
    switch (m.kind) {
    case SrunMessage::Chatter: return;
    case SrunMessage::Queued:
        jobId_ = m.jobId;
        Q_EMIT progress(QStringLiteral("queued: waiting for resources (Slurm job %1)").arg(m.jobId));
        return;
    case SrunMessage::Allocated:
        jobId_ = m.jobId;
        announcedAllocation_ = true;
        Q_EMIT progress(QStringLiteral("allocated job %1").arg(m.jobId));
        return;
    case SrunMessage::JobNodes:
        jobId_ = m.jobId;
        Q_EMIT progress(announcedAllocation_ ? QStringLiteral("job %1 on %2").arg(m.jobId).arg(m.nodes)
                                             : QStringLiteral("allocated job %1 on %2").arg(m.jobId).arg(m.nodes));
        announcedAllocation_ = true;
        return;
    case SrunMessage::StepLaunch: onStepLaunch(m); return;
    case SrunMessage::TaskExit:
        readStdout(); // a rank's last output before its exit
        for (int task : m.tasks) reportExit(task, m.exitKind, m.code);
        return;
    case SrunMessage::Other:
        if (m.fromSrun && m.text.startsWith(QLatin1String("error: "))) lastError_ = m.text.mid(7);
        if (!m.text.isEmpty()) Q_EMIT progress(m.fromSrun ? QStringLiteral("srun: ") + m.text : m.text);
        return;
    }
}

void SlurmBackend::onStepLaunch(const SrunMessage& m)
{
    jobId_ = m.jobId;
    step_ = m.step;
    const RankSlot* slot = launch_.slotOf(m.tasks.first());
    if (slot) {
        HostInfo info;
        info.hostIndex = slot->hostIndex;
        info.name = info.hostname = m.host;
        info.port = 0;
        Q_EMIT hostReady(info);
    }
    Q_EMIT progress(QStringLiteral("step %1: %2 rank(s) on %3").arg(m.step).arg(m.tasks.size()).arg(m.host));
    if (m.tasks.contains(0)) {
        masterHost_ = m.host;
        ranksRunning();
    }
}

void SlurmBackend::ranksRunning()
{
    if (running_) return;
    running_ = true;
    // As the core derives it under srun (docs/protocol.md), unless the run sets it.
    const QString addr = !attempt_.masterAddr.isEmpty() ? attempt_.masterAddr
                         : !masterHost_.isEmpty()       ? masterHost_
                                                        : QStringLiteral("the first node");
    const qsizetype dot = step_.indexOf(QLatin1Char('.'));
    const long long stepId = dot < 0 ? 0 : step_.mid(dot + 1).toLongLong();
    const int port = attempt_.masterPort > 0 ? attempt_.masterPort
                     : jobId_ >= 0         ? engine::slurmRendezvousPort(jobId_, stepId)
                                           : 0;
    Q_EMIT ranksStarting(addr, port);
}

void SlurmBackend::reportExit(int rank, RankExit::Kind kind, int code)
{
    if (rank < 0 || rank >= launch_.worldSize || exited_[rank]) return;
    exited_[rank] = true;
    RankExit e{rank, kind, code, {}};
    // After our interrupts srun signals every task itself.
    e.stoppedByLauncher = interrupted_ && kind == RankExit::Signaled;
    Q_EMIT rankExited(e);
}

void SlurmBackend::onSrunFinished(int code, QProcess::ExitStatus status)
{
    if (finished_) return;
    readStdout();
    readStderr();
    reader_.finish();
    srunDone_ = true;
    firstInterrupt_.stop();
    secondInterrupt_.stop();
    graceTimer_.stop();
    const bool crashed = status == QProcess::CrashExit;
    if (crashed && !cancelRequested_) cancelJob(); // killed by someone else: its tasks may still run
    if (!running_) {
        if (!stopping_) {
            const QString how = crashed ? QStringLiteral("srun was killed by %1").arg(signalName(code))
                                        : QStringLiteral("srun exited with code %1").arg(code);
            Q_EMIT launchFailed(how + (lastError_.isEmpty() ? QStringLiteral(" before starting any task")
                                                            : QStringLiteral(": ") + lastError_),
                                0);
        }
    } else {
        // Tasks srun said nothing about share its status (it reports the worst).
        for (int r = 0; r < launch_.worldSize; ++r) reportExit(r, crashed ? RankExit::Signaled : RankExit::Exited, code);
    }
    maybeFinish();
}

void SlurmBackend::onStartError()
{
    if (srunDone_) return;
    srunDone_ = true;
    Q_EMIT launchFailed(QStringLiteral("cannot run srun: %1 (is Slurm's client installed and on PATH?)").arg(srun_.errorString()), 0);
    maybeFinish();
}

void SlurmBackend::interruptSrun()
{
    if (!srunDone_ && srun_.processId() > 0) ::kill(static_cast<pid_t>(srun_.processId()), SIGINT);
}

void SlurmBackend::terminate()
{
    if (finished_ || srunDone_ || graceTimer_.isActive()) return;
    if (!stopping_) {
        stopping_ = true;
        deadlineTimer_.start(deadlineMs_);
    }
    // srun's cancel: the first SIGINT prints the step's status, a second within a second aborts it.
    firstInterrupt_.start(running_ ? kSettleMs : 0);
    graceTimer_.start(graceMs_);
}

void SlurmBackend::kill()
{
    if (finished_) return;
    if (!stopping_) {
        stopping_ = true;
        deadlineTimer_.start(std::max(500, deadlineMs_ - graceMs_));
    }
    firstInterrupt_.stop();
    secondInterrupt_.stop();
    graceTimer_.stop();
    if (srunDone_) return;
    interrupted_ = true;
    if (srun_.processId() > 0) ::kill(static_cast<pid_t>(srun_.processId()), SIGKILL);
    cancelJob();
}

void SlurmBackend::cancelJob()
{
    if (cancelRequested_ || jobId_ < 0) return;
    cancelRequested_ = true;
    canceller_.cancel(jobId_, step_, ownAllocation_);
}

void SlurmBackend::giveUp()
{
    if (!srunDone_) {
        // SIGKILL cannot be refused; an srun still here is stuck in the kernel.
        srun_.disconnect(this);
        srunDone_ = true;
        for (int r = 0; r < launch_.worldSize; ++r) {
            if (exited_[r]) continue;
            exited_[r] = true;
            Q_EMIT rankExited({r, RankExit::Lost, 0, QStringLiteral("srun did not exit after SIGKILL")});
        }
    }
    canceller_.abandon();
    maybeFinish();
}

void SlurmBackend::maybeFinish()
{
    if (finished_ || !srunDone_ || canceller_.busy()) return;
    finished_ = true;
    firstInterrupt_.stop();
    secondInterrupt_.stop();
    graceTimer_.stop();
    deadlineTimer_.stop();
    Q_EMIT finished();
}

} // namespace sb::launch
