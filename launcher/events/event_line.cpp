#include "event_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

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
    // The prefix, the JSON, the type and the version are the core's reader's.
    EventLine line = parseEventLine(std::string_view(body.data(), static_cast<std::size_t>(body.size())));
    if (!line.malformed.empty()) return malformed(QString::fromStdString(line.malformed));
    if (!line.problem.empty()) {
        // A newer major is refused, and said with its version.
        ParsedLine refused = malformed(QString::fromStdString(line.problem));
        const json::Value* v = line.body.find("v");
        refused.newerVersion = v && v->isNumber() ? static_cast<int>(std::clamp<std::int64_t>(v->asInt(), 0, 1000000000)) : 0;
        return refused;
    }
    // The launcher files every line under its rank: one it cannot tell is malformed.
    const json::Value* rank = line.body.find("rank");
    const double r = rank && rank->isNumber() ? rank->asDouble() : -1;
    if (!(r >= 0 && r <= std::numeric_limits<int>::max() && r == std::floor(r)))
        return malformed(QStringLiteral("event without a valid \"rank\""));
    ParsedLine p;
    p.kind = ParsedLine::Event;
    CoreEvent& e = p.event;
    e.type = QString::fromStdString(line.envelope.type);
    e.rank = static_cast<int>(r);
    const json::Value* v = line.body.find("v");
    e.version = v && v->isNumber() ? static_cast<int>(std::clamp<std::int64_t>(v->asInt(), 0, kVersion)) : 0;
    e.t = line.envelope.t;
    e.runId = QString::fromStdString(line.envelope.runId);
    e.body = std::move(line.body);
    return p;
}

} // namespace sb::protocol
