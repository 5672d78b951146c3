// What a user asks for when launching a run: the plan, where its ranks run,
// and how they are supervised. Each part has defaults and validate().
#pragma once

#include "host_list.hpp"
#include "slurm/slurm_options.hpp"
#include "ssh/connect_gate.hpp"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sb::launch {

enum class BackendKind { Local, Ssh, Slurm };
QString backendName(BackendKind k); // "local" | "ssh" | "slurm"

// Where libssh finds its configuration. Empty fields mean the OpenSSH
// defaults of the user running the launcher (~/.ssh/config and
// /etc/ssh/ssh_config, ~/.ssh/known_hosts, ~/.ssh/id_*). ssh-agent is used
// when SSH_AUTH_SOCK (or IdentityAgent in the config) points at one.
struct SshOptions {
    QString configFile;
    QString knownHostsFile;
    QString sshDir;             // folder of default keys and known_hosts
    QStringList identityFiles;  // tried in addition to the configured ones
    int connectTimeoutS = 15;
    int keepaliveS = 5;         // interval of keepalive@openssh.com requests (each one answered)
    int livenessTimeoutS = 30;  // nothing received for this long: the host is lost
    int connectTries = kConnectTries; // supervised runs: tries of a connection that fails before the login
    QStringList validate() const;
};

struct RunConfig {
    QString planPath;
    QString name;                         // a label; the run's id is generated
    BackendKind backend = BackendKind::Local;
    QList<HostSpec> hosts;                // ssh: the hosts, in rank order
    QString corePath;                     // local, slurm: the shardbench-core binary
    QString remoteCore = QStringLiteral("shardbench-core"); // ssh: path or name on PATH
    QString remoteDir = QStringLiteral(".shardbench/runs"); // ssh: run folders (relative: to the home)
    QString remoteWorkdir;                // ssh: working folder of the ranks ("" = home)
    QString workdir;                      // local, slurm: working folder of the ranks ("" = current)
    int maxRestarts = 0;
    int masterPort = 0;                   // 0: a free port per attempt (slurm: the core's 15000 + job id % 15000)
    QString masterAddr;                   // "": 127.0.0.1 locally, else the first host's (node's) address
    QString resumeFrom;                   // the first attempt resumes from this checkpoint
    qint64 parentRun = -1;                // the run this one continues, if any
    int stopGraceMs = 2000;               // SIGTERM, then SIGKILL after this
    int stopDeadlineMs = 5000;            // every rank is stopped (or given up on) by then
    QMap<QString, QString> extraEnv;      // more environment for every rank (SB_THREADS, ...)
    SshOptions ssh;
    SlurmOptions slurm;

    QStringList validate() const;
};

} // namespace sb::launch
