#include "hosts/host_catalog.hpp"

#include "hosts/ssh_config_hosts.hpp"
#include "settings/cluster_settings.hpp"
#include "settings/run_settings.hpp"

#include "launch/host_list.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>

namespace sb::app {

QString ClusterSettings::userSshConfigPath()
{
    const QString set = sshConfig.value();
    return set.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/config") : expandHome(set);
}

bool HostEntry::operator==(const HostEntry& o) const
{
    return name == o.name && hostname == o.hostname && user == o.user && port == o.port &&
           identityFile == o.identityFile && gpus == o.gpus && source == o.source;
}

HostCatalog::HostCatalog(QObject* parent) : QObject(parent) { reload(); }

int HostCatalog::indexOf(const QString& name) const
{
    for (int i = 0; i < hosts_.size(); ++i)
        if (hosts_[i].name == name) return i;
    return -1;
}

const HostEntry* HostCatalog::find(const QString& name) const
{
    const int i = indexOf(name);
    return i < 0 ? nullptr : &hosts_[i];
}

void HostCatalog::reload()
{
    QList<HostEntry> hosts;
    const QJsonObject saved = QJsonDocument::fromJson(ClusterSettings::hosts.value().toUtf8()).object();
    for (const QJsonValue& v : saved.value(QStringLiteral("manual")).toArray()) {
        const QJsonObject o = v.toObject();
        HostEntry e;
        e.name = o.value(QStringLiteral("name")).toString();
        e.hostname = o.value(QStringLiteral("hostname")).toString();
        e.user = o.value(QStringLiteral("user")).toString();
        e.port = o.value(QStringLiteral("port")).toInt();
        e.identityFile = o.value(QStringLiteral("identityFile")).toString();
        e.gpus = o.value(QStringLiteral("gpus")).toInt();
        e.source = HostEntry::Manual;
        if (!e.name.isEmpty() && launch::checkHostName(e.name).ok()) hosts << e;
    }
    const QJsonObject gpus = saved.value(QStringLiteral("gpus")).toObject();
    for (const SshConfigHost& c : readSshConfigHosts(ClusterSettings::userSshConfigPath())) {
        bool shadowed = false; // a hand-made host of the same name comes first in the generated config
        for (const HostEntry& h : hosts) shadowed = shadowed || h.name == c.alias;
        if (shadowed || !launch::checkHostName(c.alias).ok()) continue;
        HostEntry e;
        e.name = c.alias;
        e.hostname = c.hostname;
        e.user = c.user;
        e.port = c.port;
        e.identityFile = c.identityFile;
        e.gpus = gpus.value(c.alias).toInt();
        e.source = HostEntry::SshConfig;
        hosts << e;
    }
    if (hosts != hosts_) {
        hosts_ = hosts;
        Q_EMIT changed();
    }
}

void HostCatalog::save(const QList<HostEntry>& hosts)
{
    QJsonArray manual;
    QJsonObject gpus;
    for (const HostEntry& h : hosts) {
        if (h.source == HostEntry::Manual) {
            QJsonObject o;
            o.insert(QStringLiteral("name"), h.name);
            o.insert(QStringLiteral("hostname"), h.hostname);
            o.insert(QStringLiteral("user"), h.user);
            o.insert(QStringLiteral("port"), h.port);
            o.insert(QStringLiteral("identityFile"), h.identityFile);
            o.insert(QStringLiteral("gpus"), h.gpus);
            manual.append(o);
        } else if (h.gpus > 0) {
            gpus.insert(h.name, h.gpus);
        }
    }
    QJsonObject root;
    root.insert(QStringLiteral("manual"), manual);
    root.insert(QStringLiteral("gpus"), gpus);
    ClusterSettings::hosts.setValue(QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact)));
}

HostEditError HostCatalog::setManualHost(const HostEntry& entryIn, const QString& previousName)
{
    HostEntry entry = entryIn;
    entry.source = HostEntry::Manual;
    entry.name = entry.name.trimmed();
    entry.hostname = entry.hostname.trimmed();
    entry.user = entry.user.trimmed();
    // A user@ in the alias would be taken for the login name: the user has its own field.
    if (const Status bad = launch::checkHostName(entry.name); !bad || entry.name.contains(u'@'))
        return {HostEditError::BadName, qtMessage(bad)};
    if (!entry.hostname.isEmpty())
        if (const Status bad = launch::checkHostName(entry.hostname); !bad || entry.hostname.contains(u'@'))
            return {HostEditError::BadAddress, qtMessage(bad)};
    if (!entry.user.isEmpty())
        if (const Status bad = launch::checkHostName(entry.user + QStringLiteral("@x")); !bad || entry.user.contains(u'@'))
            return {HostEditError::BadUser, qtMessage(bad)};
    const int previous = indexOf(previousName.isEmpty() ? entry.name : previousName);
    const int clash = indexOf(entry.name);
    if (clash >= 0 && clash != previous && hosts_[clash].source == HostEntry::Manual)
        return {HostEditError::Duplicate, {}};
    QList<HostEntry> next = hosts_;
    if (previous >= 0 && next[previous].source == HostEntry::Manual) next[previous] = entry;
    else next.prepend(entry);
    save(next);
    reload();
    return {};
}

void HostCatalog::removeHost(const QString& name)
{
    const int i = indexOf(name);
    if (i < 0 || hosts_[i].source != HostEntry::Manual) return;
    QList<HostEntry> next = hosts_;
    next.removeAt(i);
    save(next);
    reload();
}

void HostCatalog::setGpus(const QString& name, int gpus)
{
    const int i = indexOf(name);
    if (i < 0 || hosts_[i].gpus == gpus) return;
    QList<HostEntry> next = hosts_;
    next[i].gpus = gpus;
    save(next);
    reload();
}

QString HostCatalog::generatedConfigPath() { return RunSettings::dataDir() + QStringLiteral("/ssh_config"); }

Result<launch::SshOptions> HostCatalog::sshOptions() const
{
    launch::SshOptions o;
    o.knownHostsFile = expandHome(ClusterSettings::knownHosts.value());
    o.sshDir = expandHome(ClusterSettings::sshDir.value());
    o.connectTimeoutS = std::clamp(ClusterSettings::connectTimeoutS.value(), 1, limits::kMaxSshSeconds);
    const QString user = ClusterSettings::userSshConfigPath();
    const QString chosen = ClusterSettings::sshConfig.value();
    bool anyManual = false;
    for (const HostEntry& h : hosts_) anyManual = anyManual || h.source == HostEntry::Manual;
    if (!anyManual) {
        // Only a config the user chose is passed; otherwise libssh reads
        // ~/.ssh/config and /etc/ssh/ssh_config as OpenSSH does.
        if (!chosen.isEmpty()) o.configFile = user;
        return o;
    }
    // Values are written as they were checked (host names: no spaces or quotes);
    // paths are quoted, as OpenSSH reads them.
    QByteArray text = "# Written by the shardbench workbench: the hosts added by hand, then your own config.\n";
    auto line = [&text](const char* indent, const char* key, const QByteArray& value) {
        text.append(indent).append(key).append(' ').append(value).append('\n');
    };
    auto quoted = [](const QString& s) { return QByteArray(1, '"').append(s.toUtf8()).append('"'); };
    for (const HostEntry& h : hosts_) {
        if (h.source != HostEntry::Manual) continue;
        line("", "Host", h.name.toUtf8());
        line("  ", "HostName", (h.hostname.isEmpty() ? h.name : h.hostname).toUtf8());
        if (!h.user.isEmpty()) line("  ", "User", h.user.toUtf8());
        if (h.port > 0) line("  ", "Port", QByteArray::number(h.port));
        if (!h.identityFile.isEmpty()) line("  ", "IdentityFile", quoted(expandHome(h.identityFile)));
    }
    line("", "Host", "*");
    if (QFileInfo(user).isReadable()) line("", "Include", quoted(user));
    if (chosen.isEmpty() && QFileInfo(QStringLiteral("/etc/ssh/ssh_config")).isReadable())
        line("", "Include", quoted(QStringLiteral("/etc/ssh/ssh_config")));
    const QString path = generatedConfigPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.commit())
        return qtError(QStringLiteral("%1: %2").arg(path, f.errorString()));
    o.configFile = path;
    return o;
}

} // namespace sb::app
