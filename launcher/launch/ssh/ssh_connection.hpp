// One SSH session to one host (libssh), used by one thread: connect with
// ~/.ssh/config honoured, verify the host key against known_hosts, log in
// with ssh-agent or key files, then run small commands and copy files over
// SFTP. Every failure is a sentence naming the host.
#pragma once

#include "status/qt_status.hpp"

#include "../host_list.hpp"
#include "../run_config.hpp"
#include "host_key_policy.hpp"

#include <QByteArray>
#include <QString>

#include <memory>

class QTemporaryFile;
struct ssh_session_struct;
typedef struct ssh_session_struct* ssh_session;

namespace sb::launch {

class SshConnection {
public:
    SshConnection();
    ~SshConnection();
    SshConnection(const SshConnection&) = delete;
    SshConnection& operator=(const SshConnection&) = delete;

    // Where open() failed. Only Connection is worth another try: refused,
    // reset, timed out or dropped (a bastion's MaxStartups) before the login
    // completed; a host key or a login that is refused stays refused.
    enum class OpenFailure { None, Setup, Connection, HostKey, Login };

    // Ok, or why not. `keyInfo` receives the server key either way
    // (when the handshake got that far). May be called again after a failure.
    Status open(const HostSpec& host, const SshOptions& options, HostKeyPolicy& policy, HostKeyInfo* keyInfo);
    void disconnect();
    bool isConnected() const;
    OpenFailure openFailure() const { return openFailure_; } // of the last open()

    ssh_session session() const { return session_; }
    QString hostname() const { return hostname_; } // after the config
    QString user() const { return user_; }
    int port() const { return port_; }
    QString label() const { return label_; }       // "user@host:port" for messages

    // Runs a fixed command and collects up to `maxOutput` bytes of stdout; with
    // `stopWhenLonger`, more than that is an error and the command is hung up on
    // at once (not read on until it ends or times out).
    Status run(const QByteArray& command, QByteArray* output, int* exitStatus, int timeoutMs,
               qsizetype maxOutput = 1 << 20, bool stopWhenLonger = false);
    // SFTP: creates `dir` (and parents) and writes `data` to dir/name with
    // mode 0600; the folder's canonical path.
    // A failed write leaves no file, and a full disk is named as such.
    Result<QString> upload(const QString& dir, const QString& name, const QByteArray& data);
    // The last libssh error of this session.
    QString sshError() const;

private:
    Status verifyHostKey(HostKeyPolicy& policy, HostKeyInfo* keyInfo, const QString& knownHosts);
    Status authenticate();
    // Replaces libssh's ProxyCommand for a ProxyJump by proxy_jump.hpp's.
    Status applyProxyJump(const SshOptions& options);
    QString jumpErrors() const; // what the hops' ssh said, for a failed connect
    OpenFailure jumpFailure() const; // a hop's refusal (key, login) or a connection failure

    ssh_session session_ = nullptr;
    QString hostname_, user_, label_;
    int port_ = 22;
    OpenFailure openFailure_ = OpenFailure::None;
    QString jumps_;                           // the ProxyJump in use ("" = none)
    std::unique_ptr<QTemporaryFile> jumpLog_; // the hops' ssh -E file
};

} // namespace sb::launch
