#include "ssh_backend.hpp"

#include "connect_gate.hpp"
#include "remote_command.hpp"
#include "ssh_host_worker.hpp"

#include "../port_picker.hpp"

#include <libssh/libssh.h>

#include <mutex>

namespace sb::launch {

SshBackend::SshBackend(HostKeyPolicy* policy, QObject* parent) : Backend(parent), policy_(policy)
{
    static std::once_flag once;
    std::call_once(once, [] {
        ssh_init();
        qRegisterMetaType<sb::launch::RankExit>();
        qRegisterMetaType<sb::launch::HostInfo>();
        qRegisterMetaType<sb::launch::OutputStream>();
    });
}

SshBackend::~SshBackend()
{
    if (gate_) gate_->cancel();
    for (auto& w : workers_) {
        w->disconnect(this);
        w->killNow();
    }
    workers_.clear(); // each destructor waits for its thread
}

void SshBackend::start(const PreparedLaunch& launch, const AttemptSpec& attempt)
{
    launch_ = launch;
    attempt_ = attempt;
    const int hosts = static_cast<int>(launch.hosts.size());
    runDirs_ = QList<QString>(hosts);
    infos_ = QList<HostInfo>(hosts);
    const SshTarget& ssh = std::get<SshTarget>(launch.config.target);
    QString remoteRunDir = ssh.remoteDir;
    while (remoteRunDir.size() > 1 && remoteRunDir.endsWith(QLatin1Char('/'))) remoteRunDir.chop(1);
    remoteRunDir += QLatin1Char('/') + launch.uid;
    gate_ = std::make_unique<ConnectGate>(limits::kMaxConnecting);
    Q_EMIT progress(QStringLiteral("connecting to %1 host(s), at most %2 at once").arg(hosts).arg(limits::kMaxConnecting));
    for (int h = 0; h < hosts; ++h) {
        SshHostWorker::Setup s;
        s.hostIndex = h;
        s.host = launch.hosts[h];
        s.options = ssh.ssh;
        s.policy = policy_;
        s.gate = gate_.get();
        s.files = shippedFiles(launch);
        s.remoteRunDir = remoteRunDir;
        s.probePorts = h == 0 && attempt.masterPort == 0;
        if (launch.config.engine == Engine::Core) s.initFrom = launch.config.initFrom; // a script reads its weights itself
        s.remoteCore = ssh.remoteCore;
        s.remoteWorkdir = ssh.remoteWorkdir;
        s.graceMs = launch.config.stopGraceMs;
        s.deadlineMs = launch.config.stopDeadlineMs;
        auto w = std::make_unique<SshHostWorker>(s);
        connect(w.get(), &SshHostWorker::prepared, this, &SshBackend::onPrepared);
        connect(w.get(), &SshHostWorker::prepareFailed, this, &SshBackend::onPrepareFailed);
        connect(w.get(), &SshHostWorker::connectRetrying, this, [this](int, const QString& message) {
            if (!failed_ && !stopping_) Q_EMIT progress(message);
        });
        connect(w.get(), &SshHostWorker::rankStarted, this, &Backend::rankStarted);
        connect(w.get(), &SshHostWorker::rankOutput, this, &Backend::rankOutput);
        connect(w.get(), &SshHostWorker::rankExited, this, &Backend::rankExited);
        connect(w.get(), &SshHostWorker::workerDone, this, &SshBackend::onWorkerDone);
        workers_.push_back(std::move(w));
    }
    for (auto& w : workers_) w->start();
}

void SshBackend::onPrepared(int hostIndex, const HostInfo& info, const QString& absoluteRunDir,
                            const QList<int>& busyPorts)
{
    runDirs_[hostIndex] = absoluteRunDir;
    infos_[hostIndex] = info;
    if (hostIndex == 0) busyPorts_ = QSet<int>(busyPorts.begin(), busyPorts.end());
    Q_EMIT hostReady(info);
    Q_EMIT progress(QStringLiteral("%1: connected, plan copied to %2").arg(info.name, absoluteRunDir));
    if (++preparedCount_ == static_cast<int>(workers_.size()) && !failed_ && !stopping_) startRanks();
}

void SshBackend::onPrepareFailed(int hostIndex, const QString& message)
{
    if (failed_ || stopping_) return; // the first failure is the one reported
    failed_ = true;
    abortConnects();
    Q_EMIT launchFailed(message, hostIndex);
}

void SshBackend::startRanks()
{
    AttemptSpec a = attempt_;
    if (a.masterAddr.isEmpty()) a.masterAddr = infos_[0].hostname.isEmpty() ? launch_.hosts[0].hostPart() : infos_[0].hostname;
    if (a.masterPort == 0) a.masterPort = pickRendezvousPort(busyPorts_, false);
    Q_EMIT ranksStarting(a.masterAddr, a.masterPort);
    const int graceS = std::max(1, (launch_.config.stopGraceMs + 999) / 1000);
    const SshTarget& ssh = std::get<SshTarget>(launch_.config.target);
    for (int h = 0; h < static_cast<int>(workers_.size()); ++h) {
        QList<SshHostWorker::RankJob> jobs;
        const QString planPath = runDirs_[h] + QStringLiteral("/plan.json");
        for (int rank : launch_.ranksOn(h)) {
            RemoteRankCommand c;
            c.pidFile = runDirs_[h] + QStringLiteral("/rank-%1.pid").arg(rank);
            c.graceSeconds = graceS;
            c.workdir = ssh.remoteWorkdir;
            c.environment = rankEnvironment(launch_, *launch_.slotOf(rank), a);
            const RankProgram program = rankProgram(launch_, ssh.remoteCore, planPath, a);
            c.program = program.program;
            c.arguments = program.arguments;
            const Result<QByteArray> cmd = buildRankCommand(c);
            if (!cmd) {
                // Validated before; reaching here is a bug, reported as a launch failure.
                failed_ = true;
                abortConnects();
                Q_EMIT launchFailed(QStringLiteral("cannot build the command of rank %1: %2").arg(rank).arg(qtMessage(cmd)), h);
                return;
            }
            jobs << SshHostWorker::RankJob{rank, cmd.value(), c.pidFile};
        }
        workers_[h]->startRanks(jobs);
    }
    ranksStarted_ = true;
}

void SshBackend::abortConnects()
{
    if (gate_) gate_->cancel(); // waits for a slot or a back-off end at once
    for (auto& w : workers_) w->abort();
}

void SshBackend::terminate()
{
    stopping_ = true;
    abortConnects();
    for (auto& w : workers_) w->stop();
}

void SshBackend::kill()
{
    stopping_ = true;
    abortConnects();
    for (auto& w : workers_) w->killNow();
}

void SshBackend::onWorkerDone(int)
{
    if (++doneCount_ < static_cast<int>(workers_.size()) || finished_) return;
    finished_ = true;
    for (auto& w : workers_) w->wait();
    Q_EMIT finished();
}

} // namespace sb::launch
