// ProxyJump for the libssh connections. libssh 0.10 turns a `ProxyJump`
// into the ProxyCommand `ssh [-l U] [-p P] [-J REST] -W '[%h]:%p' FIRST`,
// which loses --ssh-config (no -F), connects a chain in the wrong order and
// hands the later hops to a shell unchecked. SshConnection recognises that
// command, checks every hop and replaces it by the one built here: every hop
// an OpenSSH `ssh -W` reading the same config file and known_hosts, with
// strict host-key checking and no prompts, hop k reached through hop k-1.
#pragma once

#include "protocol/run_limits.hpp"
#include "status/qt_status.hpp"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb::launch {

struct JumpHop {
    QString user;  // "" = the config's (or the local) user
    QString host;  // an alias or address; an IPv6 literal without brackets
    int port = 0;  // 0 = the config's (or 22)
};

// libssh 0.10's ProxyCommand for a ProxyJump, turned back into the
// ProxyJump value (hops in connection order). False when `command` has
// another form: a ProxyCommand the user wrote, left as it is.
bool proxyJumpFromLibsshCommand(const QString& command, QString* spec);

// A ProxyJump value: hops `[ssh://][user@]host[:port]` separated by commas,
// an IPv6 address in brackets. Host and user names as checkHostName allows
// (no shell metacharacters). The hops, or why not, naming the hop.
Result<QList<JumpHop>> parseProxyJump(const QString& spec);

struct JumpOptions {
    QString ssh;            // the OpenSSH client, an absolute path
    QString configFile;     // -F for every hop ("" = OpenSSH's default files)
    QString knownHostsFile; // UserKnownHostsFile, whatever the config says
    QStringList identityFiles;
    QString logFile;        // -E: every hop's ssh writes its errors there
    int connectTimeoutS = limits::kConnectTimeoutS;
    int keepaliveS = limits::kKeepaliveS;
    int livenessTimeoutS = limits::kLivenessTimeoutS;
};

// The ProxyCommand for libssh that reaches `%h:%p` through `hops` (at most
// 8), or why not (a path that cannot be passed to ssh safely).
Result<QByteArray> jumpProxyCommand(const QList<JumpHop>& hops, const JumpOptions& options);

} // namespace sb::launch
