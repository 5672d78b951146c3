#include "hosts/ssh_config_hosts.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace sb::app {

namespace {

constexpr int kMaxIncludeDepth = 8; // as OpenSSH's READCONF_MAX_DEPTH

// Splits a config line into keyword and arguments; "Key=Value" and quoted
// arguments as OpenSSH reads them.
QStringList words(const QString& line)
{
    QStringList out;
    QString current;
    bool quoted = false, any = false;
    for (const QChar c : line) {
        if (c == u'"') {
            quoted = !quoted;
            any = true;
        } else if (!quoted && (c.isSpace() || (c == u'=' && out.isEmpty()))) {
            if (any || !current.isEmpty()) out << current;
            current.clear();
            any = false;
        } else {
            current += c;
        }
    }
    if (any || !current.isEmpty()) out << current;
    return out;
}

bool isPattern(const QString& name)
{
    return name.contains(u'*') || name.contains(u'?') || name.startsWith(u'!');
}

void parse(const QString& text, const QString& includeBase, int depth, QList<SshConfigHost>& out)
{
    QList<int> block; // indices into `out` of the current Host block's aliases
    for (QString line : text.split(u'\n')) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(u'#')) continue;
        const QStringList w = words(line);
        if (w.isEmpty()) continue;
        const QString key = w[0].toLower();
        const QString value = w.value(1);
        if (key == u"host") {
            block.clear();
            for (int i = 1; i < w.size(); ++i) {
                if (isPattern(w[i])) continue;
                bool known = false;
                for (const SshConfigHost& h : out) known = known || h.alias == w[i];
                if (known) continue; // the first block naming a host wins, as in OpenSSH
                out << SshConfigHost{w[i], {}, {}, 0, {}};
                block << static_cast<int>(out.size()) - 1;
            }
        } else if (key == u"match") {
            block.clear();
        } else if (key == u"include" && depth < kMaxIncludeDepth) {
            for (int i = 1; i < w.size(); ++i) {
                QString pattern = expandHome(w[i]);
                if (QFileInfo(pattern).isRelative()) pattern = QDir(includeBase).filePath(pattern);
                const QFileInfo info(pattern);
                const QStringList files = QDir(info.absolutePath()).entryList({info.fileName()}, QDir::Files | QDir::Readable, QDir::Name);
                for (const QString& f : files) {
                    QFile file(QDir(info.absolutePath()).filePath(f));
                    if (file.open(QIODevice::ReadOnly)) parse(QString::fromUtf8(file.readAll()), includeBase, depth + 1, out);
                }
            }
        } else {
            for (int i : block) {
                SshConfigHost& h = out[i];
                // First value wins within a host's settings, as in OpenSSH.
                if (key == u"hostname" && h.hostname.isEmpty()) h.hostname = value;
                else if (key == u"user" && h.user.isEmpty()) h.user = value;
                else if (key == u"port" && h.port == 0) h.port = value.toInt();
                else if (key == u"identityfile" && h.identityFile.isEmpty()) h.identityFile = value;
            }
        }
    }
}

} // namespace

QString expandHome(const QString& path)
{
    if (path == u"~") return QDir::homePath();
    if (path.startsWith(QLatin1String("~/"))) return QDir::homePath() + path.mid(1);
    return path;
}

QList<SshConfigHost> parseSshConfigHosts(const QString& text, const QString& includeBase)
{
    QList<SshConfigHost> out;
    parse(text, includeBase.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh") : includeBase, 0, out);
    return out;
}

QList<SshConfigHost> readSshConfigHosts(const QString& path)
{
    QFile f(expandHome(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return parseSshConfigHosts(QString::fromUtf8(f.readAll()), QFileInfo(f.fileName()).absolutePath());
}

} // namespace sb::app
