#include "ssh_connection.hpp"

#include "known_hosts.hpp"
#include "proxy_jump.hpp"

#include "../printable.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryFile>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>
#include <chrono>
#include <mutex>

namespace sb::launch {

namespace {

QString takeString(char* s)
{
    const QString out = s ? QString::fromUtf8(s) : QString();
    ssh_string_free_char(s);
    return out;
}

// libssh expands %d, %h... in these paths: a literal % is %%.
QString libsshPath(QString path) { return path.replace(QLatin1Char('%'), QStringLiteral("%%")); }

constexpr char kGlobalKnownHosts[] = "/etc/ssh/ssh_known_hosts";

// Why libssh refused an SSH config, when ssh_get_error() is empty (libssh
// 0.10 sets no error for a ProxyJump or a Match it cannot parse): the first
// line of `file` at which the file cut short after that line is refused, read
// with a fresh session for the same host (Host and Match blocks take the same
// branches). "" when no line alone is at fault.
QString refusedConfigLine(const QString& file, const QString& target, const QString& sshDir)
{
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) return {};
    const QList<QByteArray> lines = in.read(1 << 20).split('\n');
    QTemporaryFile prefix;
    if (!prefix.open()) return {};
    const QByteArray prefixPath = libsshPath(prefix.fileName()).toUtf8();
    for (qsizetype n = 0; n < lines.size() && n < 5000; ++n) {
        prefix.write(lines[n] + '\n');
        prefix.flush();
        ssh_session probe = ssh_new();
        if (!probe) return {};
        ssh_options_set(probe, SSH_OPTIONS_HOST, target.toUtf8().constData());
        if (!sshDir.isEmpty()) ssh_options_set(probe, SSH_OPTIONS_SSH_DIR, sshDir.toUtf8().constData());
        const int parsed = ssh_options_parse_config(probe, prefixPath.constData());
        ssh_free(probe);
        if (parsed != 0)
            return QStringLiteral("%1 line %2 is not understood by libssh: \"%3\"")
                .arg(printable(file), QString::number(n + 1), printable(QString::fromUtf8(lines[n].trimmed().left(200))));
    }
    return {};
}

// known_hosts is one file shared by the connection threads.
std::mutex& knownHostsMutex()
{
    static std::mutex m;
    return m;
}

} // namespace

SshConnection::SshConnection() = default;

SshConnection::~SshConnection() { disconnect(); }

void SshConnection::disconnect()
{
    if (!session_) return;
    if (ssh_is_connected(session_)) ssh_disconnect(session_);
    ssh_free(session_);
    session_ = nullptr;
}

bool SshConnection::isConnected() const { return session_ && ssh_is_connected(session_); }

QString SshConnection::sshError() const
{
    return session_ ? QString::fromUtf8(ssh_get_error(session_)) : QStringLiteral("no session");
}

Status SshConnection::open(const HostSpec& host, const SshOptions& options, HostKeyPolicy& policy,
                            HostKeyInfo* keyInfo)
{
    disconnect();
    jumps_.clear();
    jumpLog_.reset();
    openFailure_ = OpenFailure::Setup;
    label_ = host.name;
    if (const Status bad = checkHostName(host.name); !bad) return bad;
    session_ = ssh_new();
    if (!session_) return qtError(QStringLiteral("%1: cannot create an SSH session").arg(label_));
    auto set = [&](ssh_options_e o, const QString& v) { return ssh_options_set(session_, o, v.toUtf8().constData()) == 0; };
    // libssh takes "user@host"; an IPv6 literal goes without its brackets.
    QString target = host.hostPart();
    if (target.startsWith(QLatin1Char('[')) && target.endsWith(QLatin1Char(']'))) target = target.mid(1, target.size() - 2);
    if (!host.userPart().isEmpty()) target = host.userPart() + QLatin1Char('@') + target;
    if (!set(SSH_OPTIONS_HOST, target)) return qtError(QStringLiteral("%1: invalid host: %2").arg(label_, sshError()));
    if (!options.sshDir.isEmpty() && !set(SSH_OPTIONS_SSH_DIR, options.sshDir))
        return qtError(QStringLiteral("invalid SSH folder %1: %2").arg(options.sshDir, sshError()));
    if (!options.knownHostsFile.isEmpty() && !set(SSH_OPTIONS_KNOWNHOSTS, libsshPath(options.knownHostsFile)))
        return qtError(QStringLiteral("invalid known_hosts file %1: %2").arg(options.knownHostsFile, sshError()));
    long timeout = options.connectTimeoutS;
    ssh_options_set(session_, SSH_OPTIONS_TIMEOUT, &timeout);

    // Host aliases, HostName, User, Port, IdentityFile... from the config;
    // what was set above (user@, known_hosts) takes precedence, as in OpenSSH.
    if (!options.configFile.isEmpty() && !QFileInfo(options.configFile).isReadable())
        return qtError(QStringLiteral("cannot read the SSH config file %1").arg(options.configFile));
    const QByteArray config = libsshPath(options.configFile).toUtf8();
    if (ssh_options_parse_config(session_, options.configFile.isEmpty() ? nullptr : config.constData()) != 0) {
        QString why = sshError();
        if (why.trimmed().isEmpty()) {
            // No config file given: libssh read ~/.ssh/config (or SSH_DIR/config), then the system's.
            const QStringList files = options.configFile.isEmpty()
                                          ? QStringList{(options.sshDir.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh") : options.sshDir) +
                                                            QStringLiteral("/config"),
                                                        QStringLiteral("/etc/ssh/ssh_config")}
                                          : QStringList{options.configFile};
            for (const QString& f : files)
                if (why.isEmpty()) why = refusedConfigLine(f, target, options.sshDir);
            if (why.isEmpty()) why = QStringLiteral("libssh refused %1 without saying why").arg(printable(files.join(QStringLiteral(", "))));
        }
        return qtError(QStringLiteral("%1: cannot apply the SSH config: %2").arg(label_, why));
    }
    // The config may weaken host-key checking (StrictHostKeyChecking no,
    // UserKnownHostsFile /dev/null): undo that. libssh uses these files only to
    // prefer the recorded key type and to append an accepted key; the verdict
    // is verifyHostKey's own.
    int strict = 1;
    ssh_options_set(session_, SSH_OPTIONS_STRICTHOSTKEYCHECK, &strict);
    const QString userKnownHosts = options.knownHostsFile.isEmpty() ? QStringLiteral("%d/known_hosts") : libsshPath(options.knownHostsFile);
    if (!set(SSH_OPTIONS_KNOWNHOSTS, userKnownHosts) || !set(SSH_OPTIONS_GLOBAL_KNOWNHOSTS, QLatin1String(kGlobalKnownHosts)))
        return qtError(QStringLiteral("%1: cannot set the known_hosts files: %2").arg(label_, sshError()));
    for (const QString& id : options.identityFiles) {
        if (!QFileInfo(id).isReadable()) return qtError(QStringLiteral("cannot read the identity file %1").arg(id));
        set(SSH_OPTIONS_ADD_IDENTITY, libsshPath(id));
    }

    char* value = nullptr;
    if (ssh_options_get(session_, SSH_OPTIONS_HOST, &value) == SSH_OK) hostname_ = takeString(value);
    value = nullptr;
    if (ssh_options_get(session_, SSH_OPTIONS_USER, &value) == SSH_OK) user_ = takeString(value);
    unsigned int port = 22;
    if (ssh_options_get_port(session_, &port) == SSH_OK) port_ = static_cast<int>(port);
    label_ = host.name;
    if (hostname_ != host.hostPart() || port_ != 22)
        label_ += QStringLiteral(" (%1%2:%3)").arg(user_.isEmpty() ? QString() : user_ + QLatin1Char('@'), hostname_).arg(port_);

    if (Status jump = applyProxyJump(options); !jump) return jump.prefixed(label_.toStdString());
    if (ssh_connect(session_) != SSH_OK) {
        openFailure_ = jumps_.isEmpty() ? OpenFailure::Connection : jumpFailure();
        if (jumps_.isEmpty()) return qtError(QStringLiteral("%1: cannot connect: %2").arg(label_, sshError()));
        return qtError(QStringLiteral("%1: cannot connect through the jump host(s) %2 (ProxyJump): %3%4")
            .arg(label_, jumps_, sshError(), jumpErrors()));
    }

    char* kh = nullptr;
    QString knownHosts = options.knownHostsFile;
    if (knownHosts.isEmpty() && ssh_options_get(session_, SSH_OPTIONS_KNOWNHOSTS, &kh) == SSH_OK) knownHosts = takeString(kh);
    openFailure_ = OpenFailure::HostKey;
    if (Status key = verifyHostKey(policy, keyInfo, knownHosts); !key) return key;
    openFailure_ = OpenFailure::Login;
    Status login = authenticate();
    // A connection that broke during the login was not refused by the host.
    if (!login && (!isConnected() || (ssh_get_status(session_) & (SSH_CLOSED | SSH_CLOSED_ERROR))))
        openFailure_ = OpenFailure::Connection;
    else if (login) openFailure_ = OpenFailure::None;
    return login;
}

Status SshConnection::applyProxyJump(const SshOptions& options)
{
    char* value = nullptr;
    QString spec;
    if (ssh_options_get(session_, SSH_OPTIONS_PROXYCOMMAND, &value) != SSH_OK ||
        !proxyJumpFromLibsshCommand(takeString(value), &spec))
        return {}; // no proxy, or a ProxyCommand the user wrote
    const Result<QList<JumpHop>> hops = parseProxyJump(spec);
    if (!hops) return hops.status();
    JumpOptions jump;
    jump.ssh = QStandardPaths::findExecutable(QStringLiteral("ssh"));
    if (jump.ssh.isEmpty())
        return qtError(QStringLiteral("ProxyJump %1 needs OpenSSH's ssh client on this machine, and none is on the PATH").arg(spec));
    // The hops read the file this connection read: --ssh-config, else DIR/config
    // of --ssh-dir (nothing when it has none), else OpenSSH's own defaults.
    jump.configFile = options.configFile;
    if (jump.configFile.isEmpty() && !options.sshDir.isEmpty()) {
        jump.configFile = options.sshDir + QStringLiteral("/config");
        if (!QFileInfo::exists(jump.configFile)) jump.configFile = QStringLiteral("/dev/null");
    }
    jump.knownHostsFile = !options.knownHostsFile.isEmpty() ? options.knownHostsFile
                          : !options.sshDir.isEmpty()       ? options.sshDir + QStringLiteral("/known_hosts")
                                                            : QStringLiteral("~/.ssh/known_hosts");
    jump.identityFiles = options.identityFiles;
    jump.connectTimeoutS = options.connectTimeoutS;
    jump.keepaliveS = options.keepaliveS;
    jump.livenessTimeoutS = options.livenessTimeoutS;
    jumpLog_ = std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/shardbench-jump-XXXXXX.log"));
    if (jumpLog_->open()) jump.logFile = jumpLog_->fileName();
    const Result<QByteArray> command = jumpProxyCommand(hops.value(), jump);
    if (!command) return command.status();
    if (ssh_options_set(session_, SSH_OPTIONS_PROXYCOMMAND, command.value().constData()) != SSH_OK)
        return qtError(QStringLiteral("cannot set the ProxyJump command: %1").arg(sshError()));
    jumps_ = spec;
    return {};
}

QString SshConnection::jumpErrors() const
{
    if (!jumpLog_) return {};
    QFile f(jumpLog_->fileName());
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList lines;
    for (const QByteArray& l : f.readAll().split('\n'))
        if (!l.trimmed().isEmpty()) lines << printable(QString::fromUtf8(l.trimmed()));
    if (lines.isEmpty()) return {};
    return QStringLiteral(" — ssh said: ") + lines.mid(std::max<qsizetype>(0, lines.size() - 3)).join(QStringLiteral("; "));
}

SshConnection::OpenFailure SshConnection::jumpFailure() const
{
    // OpenSSH's own words for a hop that refused us rather than failed to connect.
    QFile f(jumpLog_ ? jumpLog_->fileName() : QString());
    const QByteArray said = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    if (said.contains("Host key verification failed") || said.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"))
        return OpenFailure::HostKey;
    if (said.contains("Permission denied")) return OpenFailure::Login;
    return OpenFailure::Connection;
}

Status SshConnection::verifyHostKey(HostKeyPolicy& policy, HostKeyInfo* keyInfo, const QString& knownHosts)
{
    HostKeyInfo info;
    info.host = label_;
    info.address = hostname_;
    info.port = port_;
    info.knownHostsFile = knownHosts;
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session_, &key) != SSH_OK || !key)
        return qtError(QStringLiteral("%1: the server sent no host key: %2").arg(label_, sshError()));
    char* base64 = nullptr;
    const QByteArray blob = ssh_pki_export_pubkey_base64(key, &base64) == SSH_OK
                                ? QByteArray::fromBase64(QByteArray(base64))
                                : QByteArray();
    ssh_string_free_char(base64);
    unsigned char* hash = nullptr;
    size_t hashLen = 0;
    const int hashed = ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLen);
    info.keyType = QString::fromUtf8(ssh_key_type_to_char(ssh_key_type(key)));
    ssh_key_free(key);
    if (hashed != 0 || blob.isEmpty()) return qtError(QStringLiteral("%1: cannot read the host key").arg(label_));
    info.fingerprint = takeString(ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLen));
    ssh_clean_pubkey_hash(&hash);
    if (keyInfo) *keyInfo = info;

    const QString shown = info.keyType + QLatin1Char(' ') + info.fingerprint;
    std::lock_guard<std::mutex> lock(knownHostsMutex());
    const KnownHostsVerdict v = checkKnownHosts({knownHosts, QLatin1String(kGlobalKnownHosts)}, hostname_, port_, blob);
    const QString where = QStringLiteral("%1, line %2").arg(v.file).arg(v.line);
    switch (v.kind) {
    case KnownHostsVerdict::Trusted:
        return {};
    case KnownHostsVerdict::Changed:
        return qtError(QStringLiteral("%1: the host key has CHANGED (it is now %2; %3 holds another). Someone may be "
                              "intercepting the connection, or the host was reinstalled. Refusing to connect. If the "
                              "change is expected, remove the old key (ssh-keygen -R).")
            .arg(label_, shown, where));
    case KnownHostsVerdict::OtherType:
        return qtError(QStringLiteral("%1: the host offered a %2 key, but known_hosts (%3) holds a key of another type for "
                              "it. Refusing to connect: this can mean someone is intercepting the connection.")
            .arg(label_, info.keyType, where));
    case KnownHostsVerdict::Revoked:
        return qtError(QStringLiteral("%1: the host key %2 is REVOKED (@revoked in %3). Refusing to connect: a revoked key "
                              "is never accepted.")
            .arg(label_, shown, where));
    case KnownHostsVerdict::CertAuthority:
        return qtError(QStringLiteral("%1: known_hosts (%2) trusts this host through a certificate authority "
                              "(@cert-authority), and shardbench does not support certificate-authority host keys. "
                              "Refusing to connect.")
            .arg(label_, where));
    case KnownHostsVerdict::Error:
        return qtError(QStringLiteral("%1: cannot check the host key against %2: %3").arg(label_, v.file, v.error));
    case KnownHostsVerdict::Unknown:
        break;
    }
    const HostKeyDecision d = policy.decideUnknownHost(info);
    if (d == HostKeyDecision::Reject)
        return qtError(QStringLiteral("%1: unknown host key %2 (not in %3). Check the fingerprint with the host's "
                              "administrator, then accept it (shardbench-cli: --accept-new-host-key).")
            .arg(label_, shown, knownHosts));
    if (d == HostKeyDecision::AcceptAndRemember) {
        if (!knownHosts.isEmpty()) QDir().mkpath(QFileInfo(knownHosts).absolutePath());
        if (ssh_session_update_known_hosts(session_) != SSH_OK)
            return qtError(QStringLiteral("%1: cannot add the host key to %2: %3").arg(label_, knownHosts, sshError()));
    }
    return {};
}

Status SshConnection::authenticate()
{
    int rc = ssh_userauth_none(session_, nullptr);
    if (rc == SSH_AUTH_SUCCESS) return {};
    if (rc == SSH_AUTH_ERROR) return qtError(QStringLiteral("%1: authentication failed: %2").arg(label_, sshError()));
    const int methods = ssh_userauth_list(session_, nullptr);
    if (!(methods & SSH_AUTH_METHOD_PUBLICKEY))
        return qtError(QStringLiteral("%1: the server does not accept public-key logins; shardbench logs in with keys only "
                              "(ssh-agent or key files)").arg(label_));
    rc = ssh_userauth_publickey_auto(session_, nullptr, nullptr);
    if (rc == SSH_AUTH_SUCCESS) return {};
    if (rc == SSH_AUTH_ERROR) return qtError(QStringLiteral("%1: authentication failed: %2").arg(label_, sshError()));
    return qtError(QStringLiteral("%1: permission denied for user \"%2\": no key was accepted (tried ssh-agent and the key "
                          "files). Install your public key on the host; a key with a passphrase must be loaded "
                          "into ssh-agent.")
        .arg(label_, user_));
}

Status SshConnection::run(const QByteArray& command, QByteArray* output, int* exitStatus, int timeoutMs,
                           qsizetype maxOutput, bool stopWhenLonger)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    ssh_channel ch = ssh_channel_new(session_);
    if (!ch) return qtError(QStringLiteral("%1: cannot open a channel: %2").arg(label_, sshError()));
    auto fail = [&](const QString& what) {
        const QString msg = QStringLiteral("%1: %2: %3").arg(label_, what, sshError());
        ssh_channel_free(ch);
        return qtError(msg);
    };
    if (ssh_channel_open_session(ch) != SSH_OK) return fail(QStringLiteral("cannot open a session channel"));
    if (ssh_channel_request_exec(ch, command.constData()) != SSH_OK) return fail(QStringLiteral("cannot run a command"));
    char buf[16384];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return fail(QStringLiteral("a command timed out"));
        const int n = ssh_channel_read_timeout(ch, buf, sizeof buf, 0, static_cast<int>(std::min<long long>(left, 200)));
        if (n == SSH_ERROR) return fail(QStringLiteral("reading a command's output failed"));
        if (n > 0 && output && stopWhenLonger && output->size() + n > maxOutput) {
            // Not waited for to its end: closing the channel hangs the remote command up.
            const QString msg = QStringLiteral("%1: the command's output was too long (more than %2 bytes), so it was stopped")
                                    .arg(label_).arg(maxOutput);
            ssh_channel_close(ch);
            ssh_channel_free(ch);
            return qtError(msg);
        }
        if (n > 0 && output && output->size() < maxOutput) output->append(buf, std::min<qsizetype>(n, maxOutput - output->size()));
        while (ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1) > 0) {} // stderr is not needed
        if (n == 0 && ssh_channel_is_eof(ch)) break;
    }
    ssh_channel_send_eof(ch);
    const int status = ssh_channel_get_exit_status(ch);
    if (exitStatus) *exitStatus = status;
    ssh_channel_close(ch);
    ssh_channel_free(ch);
    return Status();
}

Result<QString> SshConnection::upload(const QString& dirIn, const QString& name, const QByteArray& data)
{
    QString dir = dirIn;
    if (dir.startsWith(QLatin1String("~/"))) dir = dir.mid(2); // SFTP starts in the home folder
    else if (dir == QLatin1String("~")) dir = QStringLiteral(".");
    else if (dir.startsWith(QLatin1Char('~')))
        return qtError(QStringLiteral("%1: remote folder \"%2\": only ~/ is understood, not ~user").arg(label_, printable(dirIn)));
    sftp_session sftp = sftp_new(session_);
    if (!sftp) return qtError(QStringLiteral("%1: cannot start SFTP: %2").arg(label_, sshError()));
    auto fail = [&](const QString& what) {
        QString msg = QStringLiteral("%1: %2: %3").arg(label_, what, sshError());
        const int code = sftp_get_error(sftp);
        if (code == SSH_FX_PERMISSION_DENIED) msg += QStringLiteral(" (permission denied)");
        else if (code == SSH_FX_NO_SUCH_FILE) msg += QStringLiteral(" (no such file or folder)");
        sftp_free(sftp);
        return qtError(msg);
    };
    if (sftp_init(sftp) != SSH_OK) return fail(QStringLiteral("cannot start SFTP (is the sftp subsystem enabled?)"));

    QString path = dir.startsWith(QLatin1Char('/')) ? QStringLiteral("/") : QString();
    for (const QString& part : dir.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        path += part;
        const QByteArray p = path.toUtf8();
        if (sftp_attributes a = sftp_stat(sftp, p.constData())) {
            const bool isDir = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
            sftp_attributes_free(a);
            if (!isDir) return fail(QStringLiteral("\"%1\" exists and is not a folder").arg(printable(path)));
        } else if (sftp_mkdir(sftp, p.constData(), 0700) != SSH_OK && sftp_get_error(sftp) != SSH_FX_FILE_ALREADY_EXISTS) {
            return fail(QStringLiteral("cannot create the folder \"%1\"").arg(printable(path)));
        }
        path += QLatin1Char('/');
    }
    const QByteArray dirBytes = (dir.isEmpty() ? QStringLiteral(".") : dir).toUtf8();
    char* canonical = sftp_canonicalize_path(sftp, dirBytes.constData());
    if (!canonical) return fail(QStringLiteral("cannot resolve the folder \"%1\"").arg(printable(dir)));
    const QString abs = QString::fromUtf8(canonical);
    ssh_string_free_char(canonical);
    const QByteArray file = (abs + QLatin1Char('/') + name).toUtf8();
    sftp_file f = sftp_open(sftp, file.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!f) return fail(QStringLiteral("cannot create \"%1\"").arg(printable(QString::fromUtf8(file))));
    qsizetype done = 0;
    while (done < data.size()) {
        const size_t chunk = static_cast<size_t>(std::min<qsizetype>(data.size() - done, 32768));
        const ssize_t n = sftp_write(f, data.constData() + done, chunk);
        if (n <= 0) {
            const QString what = QStringLiteral("cannot write \"%1\": %2").arg(printable(QString::fromUtf8(file)), sshError());
            sftp_close(f);
            // SFTP (version 3) words a full disk as "Failure": the server's statvfs tells.
            qint64 room = -1;
            if (sftp_extension_supported(sftp, "statvfs@openssh.com", "2") > 0)
                if (sftp_statvfs_t v = sftp_statvfs(sftp, abs.toUtf8().constData())) {
                    room = static_cast<qint64>(v->f_bavail * v->f_frsize);
                    sftp_statvfs_free(v);
                }
            sftp_unlink(sftp, file.constData()); // no empty or partial file for the supervisor to misread
            sftp_free(sftp);
            if (room >= 0 && room < data.size() - done + 65536)
                return qtError(QStringLiteral("%1: no space left on its file system (%2 bytes free) for the folder %3: %4")
                                   .arg(label_).arg(room).arg(printable(abs), what));
            return qtError(QStringLiteral("%1: %2").arg(label_, what));
        }
        done += n;
    }
    if (sftp_close(f) != SSH_OK) return fail(QStringLiteral("cannot close \"%1\"").arg(printable(QString::fromUtf8(file))));
    sftp_free(sftp);
    return abs;
}

} // namespace sb::launch
