#include "core_event.hpp"

#include "step_fields.hpp"

#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>

#include <cmath>
#include <limits>

namespace sb::protocol {

namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

double num(const QJsonObject& o, QLatin1String key)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? v.toDouble() : kAbsent;
}

qint64 count(const QJsonObject& o, QLatin1String key)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble()) return -1;
    const double d = v.toDouble();
    return std::isfinite(d) && d >= 0 ? static_cast<qint64>(d) : -1;
}

int integer(const QJsonObject& o, QLatin1String key, int fallback = 0)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? v.toInt(fallback) : fallback;
}

QString qText(const std::string& s) { return QString::fromStdString(s); }

int toInt(long long v) { return static_cast<int>(std::clamp<long long>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max())); }

// The event's fields in the core's JSON, for the core's typed readers
// (protocol/events.hpp). Hello, checkpoint, done and error lines are few;
// steps take stepFields() without this copy.
json::Value coreBody(const CoreEvent& e)
{
    json::ParseResult r = json::parse(QJsonDocument(e.fields).toJson(QJsonDocument::Compact).toStdString());
    return r ? std::move(*r.value) : json::Value::object();
}

} // namespace

std::optional<StepMetrics> stepFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::step)) return std::nullopt;
    const QJsonObject& o = e.fields;
    if (!o.value(QLatin1String("step")).isDouble()) return std::nullopt;
    StepMetrics m;
    m.rank = e.rank;
    m.t = e.t;
    m.step = integer(o, QLatin1String("step"));
    m.steps = integer(o, QLatin1String("steps"));
    for (const StepField& f : stepFields()) {
        const QLatin1String key(f.name());
        if (f.integer()) m.*f.count = count(o, key);
        else m.*f.real = num(o, key);
    }
    return m;
}

std::optional<CheckpointReport> checkpointFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::checkpoint)) return std::nullopt;
    const CheckpointEvent c = CheckpointEvent::fromJson(coreBody(e));
    if (c.path.empty()) return std::nullopt;
    CheckpointReport r;
    r.rank = e.rank;
    r.t = e.t;
    r.step = toInt(c.step);
    r.path = qText(c.path);
    r.bytes = c.bytes && *c.bytes >= 0 ? *c.bytes : -1;
    r.ms = c.ms.value_or(kAbsent);
    r.kind = qText(c.kind);
    r.status = qText(c.status);
    r.message = qText(c.message.value_or(std::string()));
    r.checksum = qText(c.checksum.value_or(std::string()));
    return r;
}

std::optional<DoneReport> doneFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::done)) return std::nullopt;
    const Done d = Done::fromJson(coreBody(e));
    DoneReport r;
    r.rank = e.rank;
    r.status = qText(d.status);
    r.steps = toInt(d.steps.value_or(0));
    r.finalLoss = d.finalLoss.value_or(kAbsent);
    r.peakBytes = d.peakBytes && *d.peakBytes >= 0 ? *d.peakBytes : -1;
    return r;
}

std::optional<HelloReport> helloFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::hello)) return std::nullopt;
    const Hello h = Hello::fromJson(coreBody(e));
    HelloReport r;
    r.rank = e.rank;
    r.host = qText(h.host);
    r.pid = h.pid;
    r.device = qText(h.device);
    r.torch = qText(h.torch);
    r.coreVersion = qText(h.coreVersion);
    r.world = h.world;
    r.localRank = h.localRank;
    r.localWorld = h.localWorld;
    r.threads = h.threads;
    return r;
}

QString errorText(const CoreEvent& e)
{
    const Error err = Error::fromJson(coreBody(e));
    QString msg = err.message.empty() ? QStringLiteral("(no message)") : qText(err.message);
    if (!err.where.empty()) msg += QStringLiteral(" (in ") + qText(err.where) + QLatin1Char(')');
    return msg;
}

} // namespace sb::protocol
