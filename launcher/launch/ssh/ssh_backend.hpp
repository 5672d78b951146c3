// Ranks on remote hosts over SSH: one libssh session per host, opened in
// parallel (one thread each), at most kMaxConnecting connecting at once and
// retried with back-off when the connection fails before the login
// (connect_gate.hpp). Every host is connected, verified,
// authenticated and has the plan before any rank starts; then each rank runs
// under the remote wrapper (remote_command.hpp) with the torchrun
// environment, MASTER_ADDR being the first host.
#pragma once

#include "../backend.hpp"
#include "host_key_policy.hpp"

#include <QList>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace sb::launch {

class ConnectGate;
class SshHostWorker;

class SshBackend final : public Backend {
    Q_OBJECT
public:
    // `policy` decides about unknown host keys; it must outlive the backend.
    explicit SshBackend(HostKeyPolicy* policy, QObject* parent = nullptr);
    ~SshBackend() override;

    void start(const PreparedLaunch& launch, const AttemptSpec& attempt) override;
    void terminate() override;
    void kill() override;

private:
    void onPrepared(int hostIndex, const HostInfo& info, const QString& absoluteRunDir, const QList<int>& busyPorts);
    void onPrepareFailed(int hostIndex, const QString& message);
    void startRanks();
    void onWorkerDone(int hostIndex);
    void abortConnects();

    HostKeyPolicy* policy_;
    PreparedLaunch launch_;
    AttemptSpec attempt_;
    std::unique_ptr<ConnectGate> gate_; // declared before the workers: they use it until joined
    std::vector<std::unique_ptr<SshHostWorker>> workers_;
    QList<QString> runDirs_;   // absolute remote run folder per host
    QSet<int> busyPorts_;      // listening on host 0
    QList<HostInfo> infos_;
    int preparedCount_ = 0;
    int doneCount_ = 0;
    bool failed_ = false;
    bool stopping_ = false;
    bool ranksStarted_ = false;
    bool finished_ = false;
};

} // namespace sb::launch
