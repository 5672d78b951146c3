#include "proxy_jump.hpp"

#include "../host_list.hpp"
#include "../printable.hpp"
#include "../shell_quote.hpp"

#include <QRegularExpression>

namespace sb::launch {

namespace {

constexpr int kMaxHops = 8;

// libssh and OpenSSH expand %h, %p... in a ProxyCommand; a literal % is %%.
QByteArray escapePercent(QByteArray text) { return text.replace('%', "%%"); }

// Paths go to ssh as arguments; these characters would need quoting rules
// that differ between OpenSSH's option parser and the shells.
QString checkPath(const QString& path, const char* what)
{
    for (QChar c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('"') || c == QLatin1Char('\\'))
            return QStringLiteral("the %1 \"%2\" contains %3, which cannot be passed to the ProxyJump's ssh")
                .arg(QLatin1String(what), printable(path), quotedChar(c));
    return {};
}

// A value of `-o UserKnownHostsFile=`: OpenSSH splits it at whitespace
// (quotes group) and expands % tokens.
QByteArray optionPath(const QString& path)
{
    QByteArray p = escapePercent(path.toUtf8());
    return path.contains(QRegularExpression(QStringLiteral("\\s"))) ? '"' + p + '"' : p;
}

QString parseHop(const QString& hopIn, JumpHop* out)
{
    QString hop = hopIn;
    if (hop.startsWith(QLatin1String("ssh://"), Qt::CaseInsensitive)) hop = hop.mid(6);
    JumpHop h;
    const qsizetype at = hop.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        h.user = hop.left(at);
        hop = hop.mid(at + 1);
    }
    QString port;
    bool bracketed = false;
    if (hop.startsWith(QLatin1Char('['))) {
        const qsizetype close = hop.indexOf(QLatin1Char(']'));
        if (close < 0) return QStringLiteral("an IPv6 address without its closing ']'");
        h.host = hop.mid(1, close - 1);
        bracketed = true;
        const QString rest = hop.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(':'))) return QStringLiteral("text after the address's ']'");
        port = rest.mid(1);
        if (rest.size() == 1) return QStringLiteral("an empty port");
    } else {
        const qsizetype colon = hop.indexOf(QLatin1Char(':'));
        h.host = colon < 0 ? hop : hop.left(colon);
        if (colon >= 0) {
            port = hop.mid(colon + 1);
            if (port.isEmpty()) return QStringLiteral("an empty port");
        }
    }
    const QString name = (h.user.isEmpty() && at < 0 ? QString() : h.user + QLatin1Char('@')) +
                         (bracketed ? QLatin1Char('[') + h.host + QLatin1Char(']') : h.host);
    if (const Status e = checkHostName(name); !e) return qtMessage(e);
    if (!port.isEmpty()) {
        bool ok = false;
        h.port = port.toInt(&ok);
        if (!ok || h.port < 1 || h.port > 65535 || !port.front().isDigit())
            return QStringLiteral("port \"%1\" is not a number from 1 to 65535").arg(printable(port));
    }
    *out = h;
    return {};
}

} // namespace

bool proxyJumpFromLibsshCommand(const QString& command, QString* spec)
{
    static const QRegularExpression re(QStringLiteral(
        "^ssh(?: -l (\\S+))?(?: -p (\\S+))?(?: -J (\\S+))? -W '\\[%h\\]:%p' (\\S+)$"));
    const QRegularExpressionMatch m = re.match(command);
    if (!m.hasMatch()) return false;
    const QString host = m.captured(4);
    QString first = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (m.hasCaptured(1)) first = m.captured(1) + QLatin1Char('@') + first;
    if (m.hasCaptured(2)) first += QLatin1Char(':') + m.captured(2);
    *spec = m.hasCaptured(3) ? first + QLatin1Char(',') + m.captured(3) : first;
    return true;
}

Result<QList<JumpHop>> parseProxyJump(const QString& spec)
{
    QList<JumpHop> hops;
    const QStringList parts = spec.split(QLatin1Char(','));
    if (parts.size() > kMaxHops)
        return qtError(QStringLiteral("ProxyJump \"%1\" has %2 hops; at most %3 are supported")
                           .arg(printable(spec))
                           .arg(parts.size())
                           .arg(kMaxHops));
    for (const QString& part : parts) {
        JumpHop h;
        QString e = part.isEmpty() ? QStringLiteral("an empty hop") : parseHop(part, &h);
        if (!e.isEmpty())
            return qtError(QStringLiteral("ProxyJump \"%1\": hop \"%2\": %3").arg(printable(spec), printable(part), e));
        hops.append(h);
    }
    return hops;
}

Result<QByteArray> jumpProxyCommand(const QList<JumpHop>& hops, const JumpOptions& o)
{
    if (hops.isEmpty() || hops.size() > kMaxHops) return qtError(QStringLiteral("a ProxyJump needs 1 to %1 hops").arg(kMaxHops));
    if (!o.ssh.startsWith(QLatin1Char('/'))) return qtError(QStringLiteral("ProxyJump needs OpenSSH's ssh client on this machine"));
    for (const auto& [path, what] : {std::pair{o.configFile, "SSH config file"}, {o.knownHostsFile, "known_hosts file"},
                                     {o.logFile, "log file"}, {o.ssh, "ssh client"}})
        if (QString e = checkPath(path, what); !e.isEmpty()) return qtError(e);
    for (const QString& id : o.identityFiles)
        if (QString e = checkPath(id, "identity file"); !e.isEmpty()) return qtError(e);
    const int keepalive = std::max(1, o.keepaliveS);
    const int aliveMax = std::max(1, (o.livenessTimeoutS + keepalive - 1) / keepalive);
    QByteArray previous; // the command of the hop before, run by this hop's ssh
    for (qsizetype k = 0; k < hops.size(); ++k) {
        const JumpHop& h = hops[k];
        QByteArrayList argv = {o.ssh.toUtf8()};
        if (!o.configFile.isEmpty()) argv << "-F" << o.configFile.toUtf8();
        if (!o.logFile.isEmpty()) argv << "-E" << o.logFile.toUtf8();
        // As shardbench's own check: known keys only, whatever the config says; never a prompt.
        argv << "-o" << "BatchMode=yes" << "-o" << "StrictHostKeyChecking=yes";
        if (!o.knownHostsFile.isEmpty()) argv << "-o" << "UserKnownHostsFile=" + optionPath(o.knownHostsFile);
        argv << "-o" << "GlobalKnownHostsFile=/etc/ssh/ssh_known_hosts";
        argv << "-o" << "ConnectTimeout=" + QByteArray::number(std::max(1, o.connectTimeoutS));
        argv << "-o" << "ServerAliveInterval=" + QByteArray::number(keepalive) << "-o"
             << "ServerAliveCountMax=" + QByteArray::number(aliveMax);
        for (const QString& id : o.identityFiles) argv << "-i" << escapePercent(id.toUtf8());
        if (k > 0) argv << "-o" << "ProxyCommand=" + previous;
        if (!h.user.isEmpty()) argv << "-l" << h.user.toUtf8();
        if (h.port > 0) argv << "-p" << QByteArray::number(h.port);
        const Result<QByteArray> quoted = shellCommand(argv);
        if (!quoted) return quoted.status();
        // SHELL: OpenSSH runs the next ProxyCommand as `$SHELL -c "exec CMD"`; the nested quoting is POSIX.
        previous = "env SHELL=/bin/sh " + escapePercent(quoted.value()) + " -W '[%h]:%p' " + shellQuote(h.host.toUtf8());
    }
    return QByteArray("exec " + previous); // libssh runs it as `$SHELL -c CMD`
}

} // namespace sb::launch
