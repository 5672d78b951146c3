// Where a run's ranks start, as one value: this machine's own processes, SSH
// hosts, or Slurm. Slurm is always driven from this machine (srun, or sbatch
// for a detached run), which must be a login node; there is no Slurm over
// SSH, so that state cannot be written down. The command line's --local,
// --slurm, --hosts and --host and the workbench's target chooser both become
// a TargetChoice, and targetFrom() is the one way from it to the target.
#pragma once

#include "host_list.hpp"
#include "run_config.hpp"
#include "slurm/slurm_options.hpp"

#include <QList>

#include <variant>

namespace sb::launch {

struct LocalTarget {};
struct SshTarget {
    QList<HostSpec> hosts; // in rank order, with their slots
};
struct SlurmTarget {
    SlurmOptions options;
};
using LaunchTarget = std::variant<LocalTarget, SshTarget, SlurmTarget>;

// What a person chose. Slurm wins over local (the chooser's Slurm option
// starts srun here); neither means SSH to `hosts`.
struct TargetChoice {
    bool local = false;
    bool slurm = false;
    QList<HostSpec> hosts;
    SlurmOptions slurmOptions;
};
LaunchTarget targetFrom(const TargetChoice& choice);

BackendKind backendOf(const LaunchTarget& target);
bool startsHere(const LaunchTarget& target);          // local or Slurm: this machine starts the ranks
QList<HostSpec> sshHosts(const LaunchTarget& target); // empty unless SSH
int sshSlots(const LaunchTarget& target);             // the SSH hosts' slots together

// The target's part of a run configuration (backend, hosts, Slurm options), both ways.
void applyTarget(const LaunchTarget& target, RunConfig& config);
LaunchTarget targetOf(const RunConfig& config);

} // namespace sb::launch
