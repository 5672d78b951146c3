#include "local_backend.hpp"

#include "port_picker.hpp"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace sb::launch {

LocalBackend::LocalBackend(QObject* parent) : Backend(parent)
{
    graceTimer_.setSingleShot(true);
    deadlineTimer_.setSingleShot(true);
    connect(&graceTimer_, &QTimer::timeout, this, [this] { signalAll(SIGKILL); });
    connect(&deadlineTimer_, &QTimer::timeout, this, [this] {
        // SIGKILL cannot be refused; a rank still here is stuck in the kernel.
        for (auto& r : ranks_) {
            if (!r->running) continue;
            r->running = false;
            Q_EMIT rankExited({r->rank, RankExit::Lost, 0,
                               QStringLiteral("process %1 did not exit after SIGKILL").arg(r->pid)});
        }
        maybeFinish();
    });
}

LocalBackend::~LocalBackend()
{
    for (auto& r : ranks_) {
        if (!r->running || !r->process) continue;
        if (::kill(-static_cast<pid_t>(r->pid), SIGKILL) != 0) ::kill(static_cast<pid_t>(r->pid), SIGKILL);
        r->process->disconnect(this);
        r->process->waitForFinished(2000);
    }
}

void LocalBackend::start(const PreparedLaunch& launch, const AttemptSpec& attemptIn)
{
    Q_ASSERT(!started_);
    started_ = true;
    graceMs_ = launch.config.stopGraceMs;
    deadlineMs_ = launch.config.stopDeadlineMs;
    AttemptSpec attempt = attemptIn;
    if (attempt.masterAddr.isEmpty()) attempt.masterAddr = QStringLiteral("127.0.0.1");
    if (attempt.masterPort == 0) attempt.masterPort = pickRendezvousPort({}, true);
    if (attempt.masterPort == 0) {
        Q_EMIT launchFailed(QStringLiteral("no free TCP port for the rendezvous"), 0);
        QMetaObject::invokeMethod(this, [this] { maybeFinish(); }, Qt::QueuedConnection);
        return;
    }
    const Result<QString> planCopy = writePlanCopy(launch);
    if (!planCopy) {
        Q_EMIT launchFailed(qtMessage(planCopy), 0);
        QMetaObject::invokeMethod(this, [this] { maybeFinish(); }, Qt::QueuedConnection);
        return;
    }
    Q_EMIT ranksStarting(attempt.masterAddr, attempt.masterPort);

    const QProcessEnvironment base = QProcessEnvironment::systemEnvironment();
    const LocalTarget& here = std::get<LocalTarget>(launch.config.target);
    const QString workdir = here.workdir.isEmpty() ? QDir::currentPath() : here.workdir;
    const pid_t launcher = ::getpid();
    for (const RankSlot& slot : launch.ranks) {
        auto r = std::make_unique<Rank>();
        r->rank = slot.rank;
        r->process = new QProcess(this);
        QProcessEnvironment env = base;
        for (const auto& [name, value] : rankEnvironment(launch, slot, attempt))
            env.insert(QString::fromUtf8(name), QString::fromUtf8(value));
        const RankProgram program = rankProgram(launch, here.corePath, planCopy.value(), attempt);
        QStringList args;
        for (const QByteArray& a : program.arguments) args << QString::fromUtf8(a);
        r->process->setProgram(program.program);
        r->process->setArguments(args);
        r->process->setProcessEnvironment(env);
        r->process->setWorkingDirectory(workdir);
        r->process->setStandardInputFile(QProcess::nullDevice());
        r->process->setChildProcessModifier([launcher] {
            ::setpgid(0, 0);
#ifdef __linux__
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != launcher) ::_exit(1); // the launcher died before prctl
#endif
        });
        Rank* raw = r.get();
        connect(r->process, &QProcess::readyReadStandardOutput, this, [this, raw] { onReadable(*raw, OutputStream::Stdout); });
        connect(r->process, &QProcess::readyReadStandardError, this, [this, raw] { onReadable(*raw, OutputStream::Stderr); });
        connect(r->process, &QProcess::finished, this,
                [this, raw](int code, QProcess::ExitStatus status) { onFinished(*raw, code, status); });
        connect(r->process, &QProcess::errorOccurred, this, [this, raw](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) onStartError(*raw);
        });
        ranks_.push_back(std::move(r));
    }
    for (auto& r : ranks_) {
        if (stopping_ || startBlocked_) break; // do not start the rest
        r->running = true;
        r->process->start();
        if (r->process->state() != QProcess::NotRunning) {
            r->pid = r->process->processId();
            // Also from the parent, so that a stop right now reaches the group.
            ::setpgid(static_cast<pid_t>(r->pid), static_cast<pid_t>(r->pid));
            Q_EMIT rankStarted(r->rank, r->pid);
        }
    }
    QMetaObject::invokeMethod(this, [this] { maybeFinish(); }, Qt::QueuedConnection);
}

Result<QString> LocalBackend::writePlanCopy(const PreparedLaunch& launch)
{
    planDir_ = std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("shardbench-%1-XXXXXX").arg(launch.uid)));
    if (!planDir_->isValid()) return qtError(QStringLiteral("cannot create a folder for the plan copy: %1").arg(planDir_->errorString()));
    for (const auto& [name, bytes] : shippedFiles(launch)) {
        const QString path = planDir_->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.flush())
            return qtError(QStringLiteral("cannot copy the plan to %1: %2").arg(path, f.errorString()));
    }
    return planDir_->filePath(QStringLiteral("plan.json"));
}

void LocalBackend::signalAll(int sig)
{
    for (auto& r : ranks_) {
        if (!r->running || r->pid <= 0) continue;
        if (::kill(-static_cast<pid_t>(r->pid), sig) != 0) ::kill(static_cast<pid_t>(r->pid), sig);
    }
}

void LocalBackend::terminate()
{
    if (stopping_ && graceTimer_.isActive()) return;
    if (!stopping_) {
        stopping_ = true;
        deadlineTimer_.start(deadlineMs_);
    }
    signalAll(SIGTERM);
    graceTimer_.start(graceMs_);
    maybeFinish();
}

void LocalBackend::kill()
{
    if (!stopping_) {
        stopping_ = true;
        deadlineTimer_.start(deadlineMs_ - graceMs_);
    }
    graceTimer_.stop();
    signalAll(SIGKILL);
    maybeFinish();
}

void LocalBackend::onReadable(Rank& r, OutputStream stream)
{
    const QByteArray data = stream == OutputStream::Stdout ? r.process->readAllStandardOutput()
                                                           : r.process->readAllStandardError();
    protocol::LineSplitter& splitter = stream == OutputStream::Stdout ? r.out : r.err;
    splitter.feed(data, [&](QByteArray line, bool truncated) { Q_EMIT rankOutput(r.rank, stream, line, truncated); });
}

void LocalBackend::onFinished(Rank& r, int code, QProcess::ExitStatus status)
{
    onReadable(r, OutputStream::Stdout);
    onReadable(r, OutputStream::Stderr);
    r.out.finish([&](QByteArray line, bool t) { Q_EMIT rankOutput(r.rank, OutputStream::Stdout, line, t); });
    r.err.finish([&](QByteArray line, bool t) { Q_EMIT rankOutput(r.rank, OutputStream::Stderr, line, t); });
    if (!r.running) return;
    r.running = false;
    // Qt reports the signal number as the exit code of a crash exit.
    RankExit e{r.rank, status == QProcess::CrashExit ? RankExit::Signaled : RankExit::Exited, code, {}};
    Q_EMIT rankExited(e);
    maybeFinish();
}

void LocalBackend::onStartError(Rank& r)
{
    if (!r.running) return;
    r.running = false;
    startBlocked_ = true; // the supervisor stops the rest
    Q_EMIT rankExited({r.rank, RankExit::NotStarted, 0,
                       QStringLiteral("%1: %2").arg(r.process->program(), r.process->errorString())});
    maybeFinish();
}

void LocalBackend::maybeFinish()
{
    if (finished_) return;
    for (auto& r : ranks_)
        if (r->running) return;
    finished_ = true;
    graceTimer_.stop();
    deadlineTimer_.stop();
    Q_EMIT finished();
}

} // namespace sb::launch
