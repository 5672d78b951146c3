// The hosts the workbench knows: the aliases of the user's SSH config and the
// hosts added by hand (address, user, port, key file, GPUs). Hand-made hosts
// and GPU counts are kept in the settings. For connecting, hand-made hosts
// are written into an SSH config of their own that includes the user's, so
// libssh sees them exactly like configured aliases.
#pragma once

#include "launch/run_config.hpp"

#include <QList>
#include <QObject>
#include <QString>

namespace sb::app {

struct HostEntry {
    enum Source { SshConfig, Manual };
    QString name;          // the alias used to connect
    QString hostname;      // "" = the name itself
    QString user;          // "" = the local user / the config's
    int port = 0;          // 0 = 22 / the config's
    QString identityFile;  // "" = ssh-agent and the default keys
    int gpus = 0;          // ranks to run there; 0 = the plan's processes per node
    Source source = Manual;
    bool operator==(const HostEntry& o) const;
};

// Why a hand-made host was not accepted; `detail` is the launcher's sentence
// about the name (which character is not allowed).
struct HostEditError {
    enum Kind { None, BadName, BadAddress, BadUser, Duplicate };
    Kind kind = None;
    QString detail;
    explicit operator bool() const { return kind != None; }
};

class HostCatalog : public QObject {
    Q_OBJECT
public:
    explicit HostCatalog(QObject* parent = nullptr);

    const QList<HostEntry>& hosts() const { return hosts_; }
    int indexOf(const QString& name) const;
    const HostEntry* find(const QString& name) const;

    // Re-reads the SSH config and the settings.
    void reload();
    // Adds or replaces a hand-made host.
    HostEditError setManualHost(const HostEntry& entry, const QString& previousName = {});
    void removeHost(const QString& name); // hand-made hosts only
    void setGpus(const QString& name, int gpus);

    // Where libssh reads the configuration for these hosts (writes the
    // generated config when hand-made hosts exist); or why the generated
    // file cannot be written.
    Result<launch::SshOptions> sshOptions() const;
    static QString generatedConfigPath();

Q_SIGNALS:
    void changed();

private:
    static void save(const QList<HostEntry>& hosts);

    QList<HostEntry> hosts_;
};

} // namespace sb::app
