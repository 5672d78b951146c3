// The host aliases of an OpenSSH client config (~/.ssh/config): every `Host`
// pattern without wildcards or negation, with the HostName, User, Port and
// IdentityFile of its own block. Shown in the Cluster area; the connection
// itself lets libssh read the config, so this only has to list the names.
#pragma once

#include <QList>
#include <QString>

namespace sb::app {

struct SshConfigHost {
    QString alias;
    QString hostname;     // "" when the block has none (the alias is the address)
    QString user;
    int port = 0;         // 0: not given (22)
    QString identityFile;
};

// `includeBase` resolves relative Include paths (OpenSSH: ~/.ssh).
QList<SshConfigHost> parseSshConfigHosts(const QString& text, const QString& includeBase = {});
QList<SshConfigHost> readSshConfigHosts(const QString& path);
// "~/x" -> "$HOME/x".
QString expandHome(const QString& path);

} // namespace sb::app
