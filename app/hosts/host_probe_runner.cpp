#include "hosts/host_probe_runner.hpp"

namespace sb::app {

HostProbeRunner::HostProbeRunner(launch::HostKeyPolicy* policy, QObject* parent) : QObject(parent), policy_(policy)
{
    qRegisterMetaType<HostProbeResult>();
    pool_.setMaxThreadCount(32); // connecting mostly waits on the network
}

HostProbeRunner::~HostProbeRunner()
{
    cancel();
    pool_.waitForDone();
}

bool HostProbeRunner::start(const QList<ProbeTarget>& targets, const launch::SshOptions& ssh, const QString& localCore,
                            const HostProbeOptions& options)
{
    if (running_) return false;
    ++generation_;
    targets_ = targets;
    results_.clear();
    for (const ProbeTarget& t : targets) {
        HostProbeResult pending;
        pending.host = t.host.name;
        pending.local = t.local;
        pending.failure = HostProbeResult::Other;
        results_ << pending;
    }
    done_ = 0;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    gate_ = std::make_shared<launch::ConnectGate>();
    running_ = true;
    Q_EMIT progressChanged(0, total());
    if (targets.isEmpty()) {
        running_ = false;
        Q_EMIT finished();
        return true;
    }
    for (int i = 0; i < targets.size(); ++i) {
        const ProbeTarget target = targets[i];
        const int generation = generation_;
        auto cancel = cancel_;
        auto gate = gate_;
        launch::HostKeyPolicy* policy = policy_;
        pool_.start([this, target, ssh, localCore, options, generation, i, cancel, gate, policy] {
            const HostProbeResult r = target.local ? probeLocalHost(localCore, options, cancel.get())
                                                   : probeSshHost(target.host, ssh, *policy, options, cancel.get(), gate.get());
            QMetaObject::invokeMethod(this, [this, generation, i, r] { deliver(generation, i, r); }, Qt::QueuedConnection);
        });
    }
    return true;
}

void HostProbeRunner::cancel()
{
    if (cancel_) cancel_->store(true);
    if (gate_) gate_->cancel(); // probes waiting for a slot end at once
}

void HostProbeRunner::deliver(int generation, int index, const HostProbeResult& result)
{
    if (generation != generation_ || index >= results_.size()) return;
    results_[index] = result;
    ++done_;
    Q_EMIT resultReady(index, result);
    Q_EMIT progressChanged(done_, total());
    if (done_ == total()) {
        running_ = false;
        Q_EMIT finished();
    }
}

} // namespace sb::app
