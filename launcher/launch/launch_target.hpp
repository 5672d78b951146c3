// Where a run's ranks start, as one value: this machine's own processes, SSH
// hosts, or Slurm, each with the fields only it takes. Slurm is always driven
// from this machine (srun, or sbatch for a detached run), which must be a
// login node; there is no Slurm over SSH, and no Slurm options, hosts or
// remote paths outside their own target, so such states cannot be written
// down. The command line's --local, --slurm, --hosts and --host and the
// workbench's target chooser both become a TargetChoice, and targetFrom() is
// the one way from it to the target.
#pragma once

#include "host_list.hpp"
#include "slurm/slurm_options.hpp"
#include "ssh/connect_gate.hpp"

#include "protocol/run_limits.hpp"

#include <QList>
#include <QString>
#include <QStringList>

#include <variant>

namespace sb::launch {

// Where libssh finds its configuration. Empty fields mean the OpenSSH
// defaults of the user running the launcher (~/.ssh/config and
// /etc/ssh/ssh_config, ~/.ssh/known_hosts, ~/.ssh/id_*). ssh-agent is used
// when SSH_AUTH_SOCK (or IdentityAgent in the config) points at one.
struct SshOptions {
    QString configFile;
    QString knownHostsFile;
    QString sshDir;             // folder of default keys and known_hosts
    QStringList identityFiles;  // tried in addition to the configured ones
    int connectTimeoutS = limits::kConnectTimeoutS;
    int keepaliveS = limits::kKeepaliveS;             // interval of keepalive@openssh.com requests (each one answered)
    int livenessTimeoutS = limits::kLivenessTimeoutS; // nothing received for this long: the host is lost
    int connectTries = limits::kConnectTries; // supervised runs: tries of a connection that fails before the login
    QStringList validate() const;
};

// The core this machine starts the ranks with, itself or through srun/sbatch.
struct HereCore {
    QString corePath; // the shardbench-core binary (Slurm: on the nodes' shared file system, or a name on their PATH)
    QString workdir;  // the ranks' working folder ("" = the current one)
};

struct LocalTarget : HereCore {};
struct SshTarget {
    QList<HostSpec> hosts;                                   // in rank order, with their slots
    QString remoteCore = QStringLiteral("shardbench-core");  // path or name on PATH
    QString remoteDir = QStringLiteral(".shardbench/runs");  // run folders (relative: to the home)
    QString remoteWorkdir;                                   // working folder of the ranks ("" = home)
    SshOptions ssh;
};
struct SlurmTarget : HereCore {
    SlurmOptions options;
};
using LaunchTarget = std::variant<LocalTarget, SshTarget, SlurmTarget>;

// The kind of a target, as the store records it (runs.backend) and the
// backend factory picks; always derived from a target, never stored beside one.
enum class BackendKind { Local, Ssh, Slurm };
QString backendName(BackendKind k); // "local" | "ssh" | "slurm"

// What a person chose. Slurm wins over local (the chooser's Slurm option
// starts srun here); neither means SSH to `hosts`. The core paths and SSH
// settings are the caller's to fill in on the target it gets.
struct TargetChoice {
    bool local = false;
    bool slurm = false;
    QList<HostSpec> hosts;
    SlurmOptions slurmOptions;
};
LaunchTarget targetFrom(const TargetChoice& choice);

BackendKind backendOf(const LaunchTarget& target);
bool startsHere(const LaunchTarget& target);          // local or Slurm: this machine starts the ranks
const HereCore* hereCore(const LaunchTarget& target); // the local or Slurm core; null for SSH
HereCore* hereCore(LaunchTarget& target);
QList<HostSpec> sshHosts(const LaunchTarget& target); // empty unless SSH
int sshSlots(const LaunchTarget& target);             // the SSH hosts' slots together

} // namespace sb::launch
