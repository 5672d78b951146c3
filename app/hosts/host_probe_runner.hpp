// Runs connection tests of several hosts at once, one worker thread each
// (libssh connects block), and reports each result as it arrives. At most
// limits::kMaxConnecting hosts are tested at once, handshake to clean-up: a
// bastion's sshd drops connections beyond its MaxStartups (10 by default),
// and 32 core test runs at once on one loaded machine timed each other out.
// A probe tries once: a host the pre-flight cannot reach refuses the launch
// at once.
#pragma once

#include "hosts/host_probe.hpp"

#include <QList>
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace sb::app {

struct ProbeTarget {
    bool local = false;       // this machine: no SSH
    launch::HostSpec host;
};

class HostProbeRunner : public QObject {
    Q_OBJECT
public:
    // `policy` answers unknown host keys; it must outlive the runner and be
    // shut down first if the runner is destroyed while a question is open.
    explicit HostProbeRunner(launch::HostKeyPolicy* policy, QObject* parent = nullptr);
    ~HostProbeRunner() override; // cancels and waits for the workers

    // False when a test is still running.
    bool start(const QList<ProbeTarget>& targets, const launch::SshOptions& ssh, const QString& localCore,
               const HostProbeOptions& options);
    void cancel();
    bool isRunning() const { return running_; }
    int total() const { return static_cast<int>(results_.size()); }
    int doneCount() const { return done_; }
    const QList<HostProbeResult>& results() const { return results_; }
    const QList<ProbeTarget>& targets() const { return targets_; }

Q_SIGNALS:
    void resultReady(int index, const sb::app::HostProbeResult& result);
    void progressChanged(int done, int total);
    void finished();

private:
    void deliver(int generation, int index, const HostProbeResult& result);

    launch::HostKeyPolicy* policy_;
    QThreadPool pool_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::shared_ptr<launch::ConnectGate> gate_; // the connection slots of the running tests
    QList<ProbeTarget> targets_;
    QList<HostProbeResult> results_;
    int done_ = 0;
    int generation_ = 0;
    bool running_ = false;
};

} // namespace sb::app

Q_DECLARE_METATYPE(sb::app::HostProbeResult)
