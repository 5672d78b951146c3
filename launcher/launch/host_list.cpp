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

QString checkPart(const QString& part, const QString& whole, const char* what, bool allowColon, bool allowPercent = false)
{
    if (part.isEmpty()) return QStringLiteral("%1 in \"%2\" is empty").arg(QLatin1String(what), printable(whole));
    if (part.startsWith(QLatin1Char('-')))
        return QStringLiteral("%1 \"%2\" must not start with '-'").arg(QLatin1String(what), printable(part));
    for (QChar c : part) {
        if (isNameChar(c) || (allowColon && c == QLatin1Char(':')) || (allowPercent && c == QLatin1Char('%'))) continue;
        return QStringLiteral("%1 \"%2\" contains %3, which is not allowed (letters, digits, '.', '-' and '_' only)")
            .arg(QLatin1String(what), printable(whole), describeChar(c));
    }
    return {};
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

QString checkHostName(const QString& name)
{
    if (name.isEmpty()) return QStringLiteral("empty host name");
    if (name.size() > 255) return QStringLiteral("host name \"%1...\" is longer than 255 characters").arg(printable(name.left(40)));
    const qsizetype at = name.indexOf(QLatin1Char('@'));
    QString host = name;
    if (at >= 0) {
        if (name.indexOf(QLatin1Char('@'), at + 1) >= 0)
            return QStringLiteral("host name \"%1\" contains more than one '@'").arg(printable(name));
        if (QString e = checkPart(name.left(at), name, "user name", false); !e.isEmpty()) return e;
        host = name.mid(at + 1);
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        return checkPart(host.mid(1, host.size() - 2), name, "address", true, true); // [fe80::1%eth0]
    return checkPart(host, name, "host name", true);
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
        if (QString e = checkHostName(h.name); !e.isEmpty()) {
            r.errors << where + e;
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
        if (QString e = checkHostName(h.name); !e.isEmpty()) {
            r.errors << QStringLiteral("--host: ") + e;
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
