#include "ssh_host_worker.hpp"

#include "connect_gate.hpp"
#include "events/line_splitter.hpp"
#include "remote_command.hpp"
#include "ssh_connection.hpp"

#include "../port_picker.hpp"

#include <QElapsedTimer>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h> // ssh_send_keepalive, usable by clients too

#include <csignal>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace sb::launch {

// One rank's channel. The libssh callbacks run in the worker thread, inside
// ssh_event_dopoll.
struct SshChannelState {
    SshHostWorker* worker = nullptr;
    int rank = 0;
    QString pidFile;
    ssh_channel channel = nullptr;
    ssh_channel_callbacks_struct callbacks{};
    protocol::LineSplitter out, err;
    std::optional<int> exitStatus;
    QString exitSignal;
    bool eofSent = false;
    bool closed = false;
    bool reported = false;
    bool pidSeen = false;

    static int onData(ssh_session, ssh_channel, void* data, uint32_t len, int isStderr, void* user)
    {
        auto* self = static_cast<SshChannelState*>(user);
        const QByteArrayView bytes(static_cast<const char*>(data), len);
        const OutputStream stream = isStderr ? OutputStream::Stderr : OutputStream::Stdout;
        (isStderr ? self->err : self->out).feed(bytes, [&](QByteArray line, bool truncated) { self->line(stream, line, truncated); });
        return static_cast<int>(len);
    }
    static void onExitStatus(ssh_session, ssh_channel, int status, void* user)
    {
        static_cast<SshChannelState*>(user)->exitStatus = status;
    }
    static void onExitSignal(ssh_session, ssh_channel, const char* signal, int, const char*, const char*, void* user)
    {
        static_cast<SshChannelState*>(user)->exitSignal = QString::fromUtf8(signal ? signal : "?");
    }
    static void onClose(ssh_session, ssh_channel, void* user) { static_cast<SshChannelState*>(user)->closed = true; }

    void line(OutputStream stream, const QByteArray& text, bool truncated)
    {
        const QByteArrayView prefix(kWrapperPidPrefix);
        if (stream == OutputStream::Stderr && !pidSeen && text.startsWith(prefix)) {
            pidSeen = true;
            Q_EMIT worker->rankStarted(rank, text.mid(prefix.size()).trimmed().toLongLong());
            return;
        }
        Q_EMIT worker->rankOutput(rank, stream, text, truncated);
    }
    void flush()
    {
        out.finish([&](QByteArray l, bool t) { line(OutputStream::Stdout, l, t); });
        err.finish([&](QByteArray l, bool t) { line(OutputStream::Stderr, l, t); });
    }
};

namespace {

int signalNumber(const QString& name)
{
    static const std::pair<const char*, int> table[] = {
        {"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ILL", SIGILL}, {"ABRT", SIGABRT}, {"FPE", SIGFPE},
        {"KILL", SIGKILL}, {"SEGV", SIGSEGV}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
        {"USR1", SIGUSR1}, {"USR2", SIGUSR2}};
    for (const auto& [n, v] : table)
        if (name == QLatin1String(n)) return v;
    return 0;
}

// A host that vanishes without a word: TCP keepalive probes, and
// unacknowledged data failing the socket after the liveness bound. A path
// that still acknowledges but carries nothing (a frozen relay) is caught by
// msSinceDataReceived below.
void tuneSocket(ssh_session session, int livenessTimeoutS)
{
    const int fd = ssh_get_fd(session);
    if (fd < 0) return;
    int on = 1, idle = 10, interval = 5, count = 3;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
#ifdef TCP_KEEPIDLE
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
#endif
#ifdef TCP_USER_TIMEOUT
    unsigned int userTimeoutMs = static_cast<unsigned int>(livenessTimeoutS) * 1000U;
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &userTimeoutMs, sizeof userTimeoutMs);
#endif
}

// keepalive@openssh.com with want_reply: sshd must answer it, so a healthy
// connection receives something every interval even when the ranks are
// silent (SSH_MSG_IGNORE gets no answer). Non-blocking, libssh sends and
// returns; a call that finds the previous request pending or its answer
// uncollected sends nothing, hence two calls.
void sendKeepalive(ssh_session session)
{
    ssh_set_blocking(session, 0);
    ssh_send_keepalive(session);
    ssh_send_keepalive(session);
    ssh_set_blocking(session, 1);
}

// Milliseconds since the kernel last received data on the connection, or -1
// where it cannot tell (not a TCP socket: a ProxyCommand).
qint64 msSinceDataReceived(ssh_session session)
{
#ifdef TCP_INFO
    const int fd = ssh_get_fd(session);
    tcp_info info{};
    socklen_t len = sizeof info;
    if (fd >= 0 && getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0) return info.tcpi_last_data_recv;
#endif
    return -1;
}

} // namespace

SshHostWorker::SshHostWorker(Setup setup, QObject* parent) : QThread(parent), setup_(std::move(setup))
{
    setObjectName(QStringLiteral("ssh-host-%1").arg(setup_.hostIndex));
}

SshHostWorker::~SshHostWorker()
{
    abort();
    killNow();
    wait();
}

void SshHostWorker::startRanks(const QList<RankJob>& jobs)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_ = jobs;
    }
    wake_.notify_all();
}

void SshHostWorker::stop()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopRequested_ = true;
    }
    wake_.notify_all();
}

void SshHostWorker::killNow()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopRequested_ = true;
        killRequested_ = true;
    }
    wake_.notify_all();
}

void SshHostWorker::abort()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        abortRequested_ = true;
    }
    wake_.notify_all();
}

void SshHostWorker::run()
{
    SshConnection conn;
    if (prepare(conn)) {
        std::optional<QList<RankJob>> jobs;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return jobs_.has_value() || abortRequested_ || stopRequested_; });
            if (!abortRequested_ && !stopRequested_) jobs = jobs_;
        }
        if (jobs) supervise(conn, *jobs);
    }
    conn.disconnect();
    Q_EMIT workerDone(setup_.hostIndex);
}

bool SshHostWorker::prepare(SshConnection& conn)
{
    auto aborted = [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        return abortRequested_ || stopRequested_;
    };
    HostKeyInfo key;
    ConnectRetryPolicy retry;
    retry.tries = setup_.options.connectTries;
    const ConnectResult connected = connectWithRetries(
        *setup_.gate, retry,
        [&] {
            const Status opened = conn.open(setup_.host, setup_.options, *setup_.policy, &key);
            return ConnectAttempt{qtMessage(opened), conn.openFailure() == SshConnection::OpenFailure::Connection};
        },
        [&](const QString& error, int nextTry, int delayMs) {
            Q_EMIT connectRetrying(setup_.hostIndex, QStringLiteral("%1; try %2 of %3 in %4 s")
                                                         .arg(error)
                                                         .arg(nextTry)
                                                         .arg(retry.tries)
                                                         .arg(delayMs / 1000.0));
        });
    if (connected.cancelled) return false;
    QString err = connected.error;
    if (err.isEmpty() && aborted()) return false;
    QString absDir;
    for (const auto& [name, bytes] : setup_.files) {
        if (!err.isEmpty()) break;
        const Result<QString> uploaded = conn.upload(setup_.remoteRunDir, name, bytes);
        if (uploaded) absDir = uploaded.value();
        else err = qtMessage(uploaded);
    }
    if (err.isEmpty() && !setup_.initFrom.isEmpty()) {
        const Result<QByteArray> cmd =
            buildCheckInitFromCommand(setup_.remoteWorkdir, setup_.remoteCore, absDir + QStringLiteral("/plan.json"), setup_.initFrom);
        QByteArray out;
        int status = -1;
        err = cmd ? qtMessage(conn.run(cmd.value(), &out, &status, 120000)) : qtMessage(cmd);
        if (err.isEmpty()) err = qtMessage(initFromChecked(setup_.host.name, setup_.initFrom, status, out));
    }
    QList<int> busy;
    if (err.isEmpty() && setup_.probePorts) {
        QByteArray out;
        int status = 0;
        // Not fatal: the port list only avoids a likely collision.
        if (conn.run(listeningPortsCommand(), &out, &status, 10000).ok())
            for (int p : listeningPorts(out)) busy << p;
    }
    if (!err.isEmpty()) {
        Q_EMIT prepareFailed(setup_.hostIndex, err);
        return false;
    }
    if (aborted()) return false;
    tuneSocket(conn.session(), setup_.options.livenessTimeoutS);
    HostInfo info;
    info.hostIndex = setup_.hostIndex;
    info.name = setup_.host.name;
    info.hostname = conn.hostname();
    info.user = conn.user();
    info.port = conn.port();
    info.keyFingerprint = key.keyType + QLatin1Char(' ') + key.fingerprint;
    Q_EMIT prepared(setup_.hostIndex, info, absDir, busy);
    return true;
}

void SshHostWorker::reportExit(SshChannelState& c)
{
    if (c.reported) return;
    c.reported = true;
    c.flush();
    RankExit e;
    e.rank = c.rank;
    if (c.exitStatus) {
        const int s = *c.exitStatus;
        // The wrapper exits with the shell's status: 128 + N when the core died of signal N.
        if (s > 128 && s < 128 + 65) {
            e.kind = RankExit::Signaled;
            e.code = s - 128;
        } else {
            e.kind = RankExit::Exited;
            e.code = s;
        }
    } else if (!c.exitSignal.isEmpty()) {
        e.kind = RankExit::Signaled;
        e.code = signalNumber(c.exitSignal);
        e.detail = QStringLiteral("the remote wrapper was killed by SIG") + c.exitSignal;
    } else {
        e.kind = RankExit::Lost;
        e.detail = QStringLiteral("its channel on %1 closed without an exit status").arg(setup_.host.name);
    }
    Q_EMIT rankExited(e);
}

void SshHostWorker::supervise(SshConnection& conn, const QList<RankJob>& jobs)
{
    ssh_session session = conn.session();
    std::vector<std::unique_ptr<SshChannelState>> channels;
    for (const RankJob& job : jobs) {
        auto c = std::make_unique<SshChannelState>();
        c->worker = this;
        c->rank = job.rank;
        c->pidFile = job.pidFile;
        c->channel = ssh_channel_new(session);
        QString why;
        if (!c->channel || ssh_channel_open_session(c->channel) != SSH_OK) {
            why = QStringLiteral("cannot open an SSH channel on %1: %2 (each rank needs one session; the server's "
                                 "MaxSessions, default 10, must exceed the slots)")
                      .arg(conn.label(), conn.sshError());
        } else {
            ssh_callbacks_init(&c->callbacks);
            c->callbacks.userdata = c.get();
            c->callbacks.channel_data_function = &SshChannelState::onData;
            c->callbacks.channel_exit_status_function = &SshChannelState::onExitStatus;
            c->callbacks.channel_exit_signal_function = &SshChannelState::onExitSignal;
            c->callbacks.channel_close_function = &SshChannelState::onClose;
            ssh_set_channel_callbacks(c->channel, &c->callbacks);
            if (ssh_channel_request_exec(c->channel, job.command.constData()) != SSH_OK)
                why = QStringLiteral("cannot start rank %1 on %2: %3").arg(job.rank).arg(conn.label(), conn.sshError());
        }
        if (!why.isEmpty()) {
            c->reported = true;
            Q_EMIT rankExited({job.rank, RankExit::NotStarted, 0, why});
        }
        channels.push_back(std::move(c));
    }

    ssh_event event = ssh_event_new();
    ssh_event_add_session(event, session);
    QElapsedTimer clock;
    clock.start();
    qint64 lastKeepalive = 0;
    qint64 stopAt = -1;
    bool killSent = false;
    QString lostBecause;
    bool frozen = false;
    for (;;) {
        bool stop, kill;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop = stopRequested_;
            kill = killRequested_;
        }
        const qint64 now = clock.elapsed();
        if (stop && stopAt < 0) {
            stopAt = now;
            for (auto& c : channels)
                if (c->channel && !c->closed && !c->eofSent) {
                    ssh_channel_send_eof(c->channel); // the watchdog sees EOF: SIGTERM, then SIGKILL
                    c->eofSent = true;
                }
        }
        const bool anyOpen = std::any_of(channels.begin(), channels.end(), [](auto& c) { return !c->reported; });
        if (!anyOpen) break;
        if (stopAt >= 0 && !killSent && (kill || now - stopAt > setup_.graceMs + 1000)) {
            // Belt and braces: SIGKILL the groups through a fresh channel.
            killSent = true;
            QStringList pidFiles;
            for (auto& c : channels)
                if (!c->reported && !c->pidFile.isEmpty()) pidFiles << c->pidFile;
            // Best effort: the ranks' watchdogs stop them when this cannot.
            if (const Result<QByteArray> cmd = buildKillCommand(pidFiles)) (void)conn.run(cmd.value(), nullptr, nullptr, 2000);
        }
        if (stopAt >= 0 && now - stopAt > (kill ? 2000 : setup_.deadlineMs)) {
            for (auto& c : channels) {
                if (c->reported) continue;
                c->reported = true;
                c->flush();
                Q_EMIT rankExited({c->rank, RankExit::Lost, 0,
                                   QStringLiteral("rank %1 on %2 did not confirm that it stopped; its watchdog stops "
                                                  "it when the connection closes")
                                       .arg(c->rank)
                                       .arg(setup_.host.name)});
            }
            break;
        }
        if (now - lastKeepalive > setup_.options.keepaliveS * 1000LL) {
            lastKeepalive = now;
            sendKeepalive(session);
        }
        const int rc = ssh_event_dopoll(event, 100);
        for (auto& c : channels)
            if (!c->reported && c->closed) reportExit(*c);
        const int status = ssh_get_status(session);
        if (rc == SSH_ERROR || !ssh_is_connected(session) || (status & (SSH_CLOSED | SSH_CLOSED_ERROR))) {
            lostBecause = conn.sshError();
            break;
        }
        // Counted from this loop's start: the wait for the other hosts was quiet.
        const qint64 silentMs = std::min(msSinceDataReceived(session), clock.elapsed());
        if (silentMs > setup_.options.livenessTimeoutS * 1000LL) {
            lostBecause = QStringLiteral("nothing received for %1 s although keepalives were sent every %2 s: the "
                                         "connection is frozen or the host is down")
                              .arg(silentMs / 1000)
                              .arg(setup_.options.keepaliveS);
            frozen = true;
            break;
        }
    }
    if (!lostBecause.isNull() || std::any_of(channels.begin(), channels.end(), [](auto& c) { return !c->reported; })) {
        const QString why = lostBecause.isEmpty() ? QStringLiteral("the connection closed") : lostBecause;
        for (auto& c : channels) {
            if (c->reported) continue;
            // An exit status that arrived with the last packets still counts.
            if (c->exitStatus || !c->exitSignal.isEmpty()) {
                reportExit(*c);
                continue;
            }
            c->reported = true;
            c->flush();
            Q_EMIT rankExited({c->rank, RankExit::Lost, 0,
                               QStringLiteral("the connection to %1 was lost (%2)").arg(setup_.host.name, why)});
        }
    }
    ssh_event_remove_session(event, session);
    ssh_event_free(event);
    if (frozen) {
        // Nothing more can be said over a frozen path. This frees the channels too.
        ssh_silent_disconnect(session);
        for (auto& c : channels) c->channel = nullptr;
    }
    for (auto& c : channels) {
        if (!c->channel) continue;
        if (ssh_is_connected(session)) ssh_channel_close(c->channel);
        ssh_channel_free(c->channel);
    }
}

} // namespace sb::launch
