// The thread of one host of an SSH run. It owns the host's libssh session
// (a session is never shared between threads): connects, verifies and
// authenticates through the launch's ConnectGate (bounded, retried), copies
// the plan; then, when told, opens one channel per
// rank and pumps their output until every rank has exited, stopping them
// on request. Results leave as queued signals.
#pragma once

#include "../backend.hpp"
#include "../host_list.hpp"
#include "../run_config.hpp"
#include "host_key_policy.hpp"

#include <QByteArray>
#include <QList>
#include <QThread>

#include <condition_variable>
#include <mutex>
#include <optional>

namespace sb::launch {

class ConnectGate;
class SshConnection;
struct SshChannelState;

class SshHostWorker final : public QThread {
    Q_OBJECT
public:
    struct Setup {
        int hostIndex = 0;
        HostSpec host;
        SshOptions options;
        HostKeyPolicy* policy = nullptr; // outlives the worker
        ConnectGate* gate = nullptr;     // the launch's bound on connections; outlives the worker
        QList<QPair<QString, QByteArray>> files; // plan.json first (shippedFiles())
        QString remoteRunDir;            // as configured (may be relative)
        bool probePorts = false;         // host 0: list listening ports
        // --init-from given to a core run: the core checks these weights against the plan there first.
        QString initFrom, remoteCore, remoteWorkdir;
        int graceMs = 2000;
        int deadlineMs = 5000;
    };
    struct RankJob {
        int rank = 0;
        QByteArray command;
        QString pidFile;
    };

    explicit SshHostWorker(Setup setup, QObject* parent = nullptr);
    ~SshHostWorker() override; // aborts and waits

    // Thread-safe commands.
    void startRanks(const QList<RankJob>& jobs);
    void stop();    // EOF to each rank (its watchdog stops it), SIGKILL helper after the grace
    void killNow(); // SIGKILL helper at once
    void abort();   // before ranks started: disconnect and finish

Q_SIGNALS:
    void prepared(int hostIndex, const sb::launch::HostInfo& info, const QString& absoluteRunDir,
                  const QList<int>& busyPorts);
    void prepareFailed(int hostIndex, const QString& message);
    void connectRetrying(int hostIndex, const QString& message);
    void rankStarted(int rank, qint64 pid);
    void rankOutput(int rank, sb::launch::OutputStream stream, const QByteArray& line, bool truncated);
    void rankExited(const sb::launch::RankExit& exit);
    void workerDone(int hostIndex);

protected:
    void run() override;

private:
    friend struct SshChannelState;
    bool prepare(SshConnection& conn);
    void supervise(SshConnection& conn, const QList<RankJob>& jobs);
    void reportExit(SshChannelState& ch);

    const Setup setup_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<QList<RankJob>> jobs_;
    bool stopRequested_ = false;
    bool killRequested_ = false;
    bool abortRequested_ = false;
};

} // namespace sb::launch
