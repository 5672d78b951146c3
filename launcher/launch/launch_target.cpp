#include "launch_target.hpp"

namespace sb::launch {

LaunchTarget targetFrom(const TargetChoice& choice)
{
    if (choice.slurm) return SlurmTarget{choice.slurmOptions};
    if (choice.local) return LocalTarget{};
    return SshTarget{choice.hosts};
}

BackendKind backendOf(const LaunchTarget& target)
{
    if (std::holds_alternative<SshTarget>(target)) return BackendKind::Ssh;
    if (std::holds_alternative<SlurmTarget>(target)) return BackendKind::Slurm;
    return BackendKind::Local;
}

bool startsHere(const LaunchTarget& target) { return !std::holds_alternative<SshTarget>(target); }

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

void applyTarget(const LaunchTarget& target, RunConfig& config)
{
    config.backend = backendOf(target);
    config.hosts = sshHosts(target);
    const SlurmTarget* slurm = std::get_if<SlurmTarget>(&target);
    config.slurm = slurm ? slurm->options : SlurmOptions{};
}

LaunchTarget targetOf(const RunConfig& config)
{
    switch (config.backend) {
    case BackendKind::Local: return LocalTarget{};
    case BackendKind::Ssh: return SshTarget{config.hosts};
    case BackendKind::Slurm: return SlurmTarget{config.slurm};
    }
    return LocalTarget{};
}

} // namespace sb::launch
