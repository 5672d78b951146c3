#include "event_line.hpp"

#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace sb::protocol {

namespace {

ParsedLine malformed(QString why)
{
    ParsedLine p;
    p.kind = ParsedLine::Malformed;
    p.error = std::move(why);
    return p;
}

} // namespace

ParsedLine parseOutputLine(QByteArrayView line)
{
    const QByteArrayView prefix(kEventPrefix);
    if (!line.startsWith(prefix)) return {};
    return parseEventBody(line.sliced(prefix.size()));
}

ParsedLine parseEventBody(QByteArrayView body)
{
    while (!body.isEmpty() && (body.back() == '\r' || body.back() == ' ' || body.back() == '\t')) body.chop(1);

    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(body.data(), body.size()), &err);
    if (err.error != QJsonParseError::NoError)
        return malformed(QStringLiteral("invalid JSON at offset %1: %2").arg(err.offset).arg(err.errorString()));
    if (!doc.isObject()) return malformed(QStringLiteral("event is not a JSON object"));

    ParsedLine p;
    p.kind = ParsedLine::Event;
    CoreEvent& e = p.event;
    e.fields = doc.object();
    const QJsonValue type = e.fields.value(QLatin1String("type"));
    if (!type.isString() || type.toString().isEmpty()) return malformed(QStringLiteral("event without a \"type\""));
    const QJsonValue rank = e.fields.value(QLatin1String("rank"));
    if (!rank.isDouble() || rank.toDouble() < 0 || rank.toDouble() != static_cast<double>(rank.toInt(-1)))
        return malformed(QStringLiteral("event without a valid \"rank\""));
    e.type = type.toString();
    e.rank = rank.toInt();
    // A line without "v" predates the field: version 1. A newer major is refused.
    const QJsonValue v = e.fields.value(QLatin1String("v"));
    e.version = v.toInt(0);
    const long long version = static_cast<long long>(std::clamp(v.toDouble(1), -1e9, 1e9));
    if (const Status why = versionProblem(version, {}); !why.ok()) {
        ParsedLine refused = malformed(QString::fromStdString(why.message()));
        refused.newerVersion = static_cast<int>(version);
        return refused;
    }
    e.t = e.fields.value(QLatin1String("t")).toDouble(0);
    e.runId = e.fields.value(QLatin1String("run_id")).toString();
    return p;
}

} // namespace sb::protocol
