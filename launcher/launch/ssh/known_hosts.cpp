#include "known_hosts.hpp"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QMessageAuthenticationCode>

#include <utility>

namespace sb::launch {

namespace {

constexpr qint64 kMaxFileBytes = 64LL << 20;

// OpenSSH's wildcard patterns: `*` any run of characters, `?` one.
bool globMatch(QStringView pattern, QStringView text)
{
    qsizetype p = 0, t = 0, star = -1, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == QLatin1Char('?') || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
            star = p++;
            resume = t;
        } else if (star >= 0) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == QLatin1Char('*')) ++p;
    return p == pattern.size();
}

// "|1|base64(salt)|base64(HMAC-SHA1(salt, host))", as `ssh-keygen -H` writes.
bool hashedMatch(QStringView pattern, const QString& target)
{
    const QList<QStringView> parts = pattern.mid(3).split(QLatin1Char('|'));
    if (parts.size() != 2) return false;
    const auto salt = QByteArray::fromBase64Encoding(parts[0].toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    const auto hash = QByteArray::fromBase64Encoding(parts[1].toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!salt || !hash || salt.decoded.isEmpty()) return false;
    return QMessageAuthenticationCode::hash(target.toUtf8(), salt.decoded, QCryptographicHash::Sha1) == hash.decoded;
}

// A comma list of patterns: some positive pattern matches and no negated one.
bool hostsMatch(QStringView field, const QString& target)
{
    bool matched = false;
    for (QStringView pattern : field.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const bool negated = pattern.startsWith(QLatin1Char('!'));
        if (negated) pattern = pattern.mid(1);
        const bool hit = pattern.startsWith(QLatin1String("|1|")) ? hashedMatch(pattern, target)
                                                                   : globMatch(pattern.toString().toLower(), target);
        if (hit && negated) return false;
        matched = matched || hit;
    }
    return matched;
}

struct Found {
    QString file;
    int line = 0;
    bool any() const { return line > 0; }
    void note(const QString& f, int l)
    {
        if (!any()) {
            file = f;
            line = l;
        }
    }
};

} // namespace

QByteArray keyBlobType(const QByteArray& blob)
{
    if (blob.size() < 4) return {};
    const auto* b = reinterpret_cast<const unsigned char*>(blob.constData());
    const quint32 len = (quint32(b[0]) << 24) | (quint32(b[1]) << 16) | (quint32(b[2]) << 8) | quint32(b[3]);
    if (len == 0 || len > 64 || len > quint32(blob.size() - 4)) return {};
    return blob.mid(4, len);
}

KnownHostsVerdict checkKnownHosts(const QStringList& files, const QString& host, int port, const QByteArray& keyBlob)
{
    const QString target = port == 22 ? host.toLower() : QStringLiteral("[%1]:%2").arg(host.toLower()).arg(port);
    const QByteArray serverType = keyBlobType(keyBlob);
    Found revoked, trusted, changed, otherType, authority;
    for (const QString& path : files) {
        if (path.isEmpty()) continue;
        const QFileInfo info(path);
        if (!info.exists()) continue;
        if (!info.isFile() || info.size() > kMaxFileBytes) {
            const QString why = info.isFile() ? QStringLiteral("it is larger than 64 MiB")
                                              : QStringLiteral("it is not a regular file");
            return {KnownHostsVerdict::Error, path, 0, why};
        }
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return {KnownHostsVerdict::Error, path, 0, f.errorString()};
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (qsizetype n = 0; n < lines.size(); ++n) {
            const QByteArray text = lines[n].simplified();
            if (text.isEmpty() || text.startsWith('#')) continue;
            QList<QByteArray> fields = text.split(' ');
            QByteArray marker;
            if (fields[0].startsWith('@')) marker = fields.takeFirst();
            if (fields.size() < 3) continue;
            if (!marker.isEmpty() && marker != "@revoked" && marker != "@cert-authority") continue; // as OpenSSH
            const auto decoded = QByteArray::fromBase64Encoding(fields[2], QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded || decoded.decoded.isEmpty()) continue;
            const QByteArray& blob = decoded.decoded;
            const int lineNo = static_cast<int>(n) + 1;
            // A revoked key is refused for every host, not only the ones its line names.
            if (marker == "@revoked") {
                if (blob == keyBlob) revoked.note(path, lineNo);
                continue;
            }
            if (!hostsMatch(QString::fromUtf8(fields[0]), target)) continue;
            if (marker == "@cert-authority") authority.note(path, lineNo);
            else if (blob == keyBlob) trusted.note(path, lineNo);
            else if (keyBlobType(blob) == serverType) changed.note(path, lineNo);
            else otherType.note(path, lineNo);
        }
    }
    const std::pair<const Found*, KnownHostsVerdict::Kind> byPrecedence[] = {
        {&revoked, KnownHostsVerdict::Revoked}, {&trusted, KnownHostsVerdict::Trusted},
        {&changed, KnownHostsVerdict::Changed}, {&otherType, KnownHostsVerdict::OtherType},
        {&authority, KnownHostsVerdict::CertAuthority}};
    for (const auto& [found, kind] : byPrecedence)
        if (found->any()) return {kind, found->file, found->line, {}};
    return {};
}

} // namespace sb::launch
