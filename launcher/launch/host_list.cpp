#include "host_list.hpp"

#include "printable.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QSet>

namespace sb::launch {

namespace {

bool isNameChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
           (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') || c == QLatin1Char('-') ||
           c == QLatin1Char('_');
}

// Empty, a leading '-' or a character outside [A-Za-z0-9._-] (':' in a host
// or address, '%' in a bracketed address's zone) in one part of `whole`.
std::optional<RunConfigProblem> partProblem(const QString& part, const QString& whole, bool allowColon, bool allowPercent = false)
{
    using C = RunConfigCode;
    if (part.isEmpty()) return RunConfigProblem{C::HostPartEmpty, {textArg(printable(whole))}};
    if (part.startsWith(QLatin1Char('-'))) return RunConfigProblem{C::HostPartDash, {textArg(printable(whole))}};
    for (QChar c : part) {
        if (isNameChar(c) || (allowColon && c == QLatin1Char(':')) || (allowPercent && c == QLatin1Char('%'))) continue;
        return RunConfigProblem{C::HostChar, {textArg(printable(whole)), textArg(quotedChar(c))}};
    }
    return std::nullopt;
}

} // namespace

QString HostSpec::userPart() const
{
    const qsizetype at = name.lastIndexOf(QLatin1Char('@'));
    return at < 0 ? QString() : name.left(at);
}

QString HostSpec::hostPart() const
{
    const qsizetype at = name.lastIndexOf(QLatin1Char('@'));
    return at < 0 ? name : name.mid(at + 1);
}

QString HostSpec::label() const
{
    return slots > 0 ? QStringLiteral("%1 slots=%2").arg(name).arg(slots) : name;
}

std::optional<RunConfigProblem> hostNameProblem(const QString& name)
{
    using C = RunConfigCode;
    if (name.isEmpty()) return RunConfigProblem{C::HostEmpty, {}};
    if (name.size() > 255) return RunConfigProblem{C::HostTooLong, {textArg(printable(name.left(40)))}};
    const qsizetype at = name.indexOf(QLatin1Char('@'));
    QString host = name;
    if (at >= 0) {
        if (name.indexOf(QLatin1Char('@'), at + 1) >= 0) return RunConfigProblem{C::HostTwoAts, {textArg(printable(name))}};
        if (auto bad = partProblem(name.left(at), name, false)) return bad;
        host = name.mid(at + 1);
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        return partProblem(host.mid(1, host.size() - 2), name, true, true); // [fe80::1%eth0]
    return partProblem(host, name, true);
}

Status checkHostName(const QString& name)
{
    const std::optional<RunConfigProblem> bad = hostNameProblem(name);
    return bad ? qtError(runConfigMessage(*bad)) : Status();
}

HostListResult parseHostfileText(const QString& text, const QString& fileLabel)
{
    HostListResult r;
    static const QRegularExpression slotsRe(QStringLiteral("^slots=(\\d{1,6})$"));
    QSet<QString> seen;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (const qsizetype hash = line.indexOf(QLatin1Char('#')); hash >= 0) line.truncate(hash);
        line = line.trimmed();
        if (line.isEmpty()) continue;
        const QString where = QStringLiteral("%1:%2: ").arg(fileLabel).arg(i + 1);
        const QStringList words = line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        HostSpec h;
        h.name = words[0];
        if (const Status e = checkHostName(h.name); !e) {
            r.errors << where + qtMessage(e);
            continue;
        }
        bool bad = false;
        for (int w = 1; w < words.size(); ++w) {
            const QRegularExpressionMatch m = slotsRe.match(words[w]);
            if (!m.hasMatch()) {
                r.errors << where + QStringLiteral("expected \"slots=N\" after the host name, got \"%1\"").arg(printable(words[w]));
                bad = true;
                break;
            }
            h.slots = m.captured(1).toInt();
            if (h.slots < 1) {
                r.errors << where + QStringLiteral("slots must be at least 1");
                bad = true;
                break;
            }
        }
        if (bad) continue;
        if (seen.contains(h.name)) {
            r.errors << where + QStringLiteral("host \"%1\" is listed twice").arg(h.name);
            continue;
        }
        seen.insert(h.name);
        r.hosts << h;
    }
    if (r.hosts.isEmpty() && r.errors.isEmpty()) r.errors << fileLabel + QStringLiteral(": no hosts in the hostfile");
    return r;
}

HostListResult readHostfile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        HostListResult r;
        r.errors << QStringLiteral("cannot read the hostfile %1: %2").arg(path, f.errorString());
        return r;
    }
    const QByteArray data = f.read(1 << 20);
    return parseHostfileText(QString::fromUtf8(data), path);
}

HostListResult parseHostArguments(const QStringList& args)
{
    HostListResult r;
    static const QRegularExpression withSlots(QStringLiteral("^(.*):(\\d{1,6})$"));
    QSet<QString> seen;
    for (const QString& a : args) {
        HostSpec h;
        h.name = a;
        const QRegularExpressionMatch m = withSlots.match(a);
        // NAME:N, unless NAME is an unbracketed IPv6 address (it has colons of its own).
        if (m.hasMatch() && (!m.captured(1).contains(QLatin1Char(':')) || m.captured(1).endsWith(QLatin1Char(']')))) {
            h.name = m.captured(1);
            h.slots = m.captured(2).toInt();
            if (h.slots < 1) {
                r.errors << QStringLiteral("--host %1: slots must be at least 1").arg(printable(a));
                continue;
            }
        }
        if (const Status e = checkHostName(h.name); !e) {
            r.errors << QStringLiteral("--host: ") + qtMessage(e);
            continue;
        }
        if (seen.contains(h.name)) {
            r.errors << QStringLiteral("--host: host \"%1\" is given twice").arg(h.name);
            continue;
        }
        seen.insert(h.name);
        r.hosts << h;
    }
    return r;
}

} // namespace sb::launch
