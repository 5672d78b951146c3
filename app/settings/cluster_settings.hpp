// How the workbench reaches remote hosts, as the user set it in the Cluster
// area (typed settings; empty paths mean OpenSSH's defaults).
#pragma once

#include "settings/setting.hpp"

#include "protocol/run_limits.hpp"

#include <QString>

namespace sb::app {

struct ClusterSettings {
    static inline const Setting<QString> sshConfig{QStringLiteral("cluster/sshConfig")};        // "" = ~/.ssh/config
    static inline const Setting<QString> knownHosts{QStringLiteral("cluster/knownHosts")};      // "" = ~/.ssh/known_hosts
    static inline const Setting<QString> sshDir{QStringLiteral("cluster/sshDir")};              // "" = ~/.ssh
    static inline const Setting<int> connectTimeoutS{QStringLiteral("cluster/connectTimeoutS"), limits::kConnectTimeoutS};
    static inline const Setting<QString> remoteCore{QStringLiteral("cluster/remoteCore"), QStringLiteral("shardbench-core")};
    static inline const Setting<QString> remoteDir{QStringLiteral("cluster/remoteDir"), QStringLiteral(".shardbench/runs")};
    // Hosts added by hand and GPU counts given to config hosts (JSON).
    static inline const Setting<QString> hosts{QStringLiteral("cluster/hosts")};

    // The user's SSH config file, resolved.
    static QString userSshConfigPath();
};

} // namespace sb::app
