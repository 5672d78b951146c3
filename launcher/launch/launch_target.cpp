#include "launch_target.hpp"

#include <utility>

namespace sb::launch {

QString backendName(BackendKind k)
{
    switch (k) {
    case BackendKind::Ssh: return QStringLiteral("ssh");
    case BackendKind::Slurm: return QStringLiteral("slurm");
    case BackendKind::Local: break;
    }
    return QStringLiteral("local");
}

LaunchTarget targetFrom(const TargetChoice& choice)
{
    if (choice.slurm) {
        SlurmTarget t;
        t.options = choice.slurmOptions;
        return t;
    }
    if (choice.local) return LocalTarget{};
    SshTarget t;
    t.hosts = choice.hosts;
    return t;
}

BackendKind backendOf(const LaunchTarget& target)
{
    if (std::holds_alternative<SshTarget>(target)) return BackendKind::Ssh;
    if (std::holds_alternative<SlurmTarget>(target)) return BackendKind::Slurm;
    return BackendKind::Local;
}

bool startsHere(const LaunchTarget& target) { return !std::holds_alternative<SshTarget>(target); }

const HereCore* hereCore(const LaunchTarget& target)
{
    if (const auto* l = std::get_if<LocalTarget>(&target)) return l;
    return std::get_if<SlurmTarget>(&target);
}

HereCore* hereCore(LaunchTarget& target) { return const_cast<HereCore*>(hereCore(std::as_const(target))); }

QList<HostSpec> sshHosts(const LaunchTarget& target)
{
    const SshTarget* ssh = std::get_if<SshTarget>(&target);
    return ssh ? ssh->hosts : QList<HostSpec>();
}

int sshSlots(const LaunchTarget& target)
{
    int n = 0;
    for (const HostSpec& h : sshHosts(target)) n += h.slots;
    return n;
}

} // namespace sb::launch
