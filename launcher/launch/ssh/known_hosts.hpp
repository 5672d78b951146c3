// shardbench's own reading of OpenSSH known_hosts files. libssh 0.10 skips
// @revoked and @cert-authority lines and lets a config's
// `StrictHostKeyChecking no` turn "unknown" and "changed" into "known", so
// the verdict on a host key is taken here and never by libssh.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb::launch {

struct KnownHostsVerdict {
    enum Kind {
        Unknown,        // no line for this host
        Trusted,        // a plain line for this host holds this very key
        Changed,        // lines for this host hold other keys of the same type
        OtherType,      // lines for this host hold only keys of other types
        Revoked,        // a @revoked line holds this key (whatever its hosts)
        CertAuthority,  // only a @cert-authority line names this host
        Error           // a file cannot be read
    };
    Kind kind = Unknown;
    QString file;       // the deciding line's file (Error: the file)
    int line = 0;       // 1-based
    QString error;      // Error: why
};

// `host` is the address after the SSH config (as libssh connects to it);
// `keyBlob` the server key in SSH wire format (what known_hosts holds in
// base64). Missing files count as empty; anything but a regular file is an
// error (a FIFO would block). Host patterns: comma lists, `*` and `?`, `!`
// negation, `[host]:port` for ports other than 22, hashed `|1|salt|hash`.
KnownHostsVerdict checkKnownHosts(const QStringList& files, const QString& host, int port, const QByteArray& keyBlob);

// The key type inside a wire-format key blob ("ssh-ed25519"), or "".
QByteArray keyBlobType(const QByteArray& keyBlob);

} // namespace sb::launch
