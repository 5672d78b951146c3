#include "core_event.hpp"

#include "step_fields.hpp"

#include <QJsonValue>

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

QString text(const QJsonObject& o, QLatin1String key)
{
    const QJsonValue v = o.value(key);
    return v.isString() ? v.toString() : QString();
}

} // namespace

std::optional<StepMetrics> stepFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String("step")) return std::nullopt;
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
    if (e.type != QLatin1String("checkpoint")) return std::nullopt;
    const QJsonObject& o = e.fields;
    CheckpointReport c;
    c.rank = e.rank;
    c.t = e.t;
    c.step = integer(o, QLatin1String("step"));
    c.path = text(o, QLatin1String("path"));
    c.bytes = count(o, QLatin1String("bytes"));
    c.ms = num(o, QLatin1String("ms"));
    c.kind = text(o, QLatin1String("kind"));
    c.status = text(o, QLatin1String("status"));
    c.message = text(o, QLatin1String("message"));
    c.checksum = text(o, QLatin1String("checksum"));
    if (c.path.isEmpty()) return std::nullopt;
    return c;
}

std::optional<DoneReport> doneFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String("done")) return std::nullopt;
    const QJsonObject& o = e.fields;
    DoneReport d;
    d.rank = e.rank;
    d.status = text(o, QLatin1String("status"));
    d.steps = integer(o, QLatin1String("steps"));
    d.finalLoss = num(o, QLatin1String("final_loss"));
    d.peakBytes = count(o, QLatin1String("peak_bytes"));
    return d;
}

std::optional<HelloReport> helloFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String("hello")) return std::nullopt;
    const QJsonObject& o = e.fields;
    HelloReport h;
    h.rank = e.rank;
    h.host = text(o, QLatin1String("host"));
    h.pid = count(o, QLatin1String("pid"));
    h.device = text(o, QLatin1String("device"));
    h.torch = text(o, QLatin1String("torch"));
    h.coreVersion = text(o, QLatin1String("core_version"));
    h.world = integer(o, QLatin1String("world"));
    h.localRank = integer(o, QLatin1String("local_rank"), -1);
    h.localWorld = integer(o, QLatin1String("local_world"));
    h.threads = integer(o, QLatin1String("threads"));
    return h;
}

QString errorText(const CoreEvent& e)
{
    QString msg = text(e.fields, QLatin1String("message"));
    if (msg.isEmpty()) msg = QStringLiteral("(no message)");
    const QString where = text(e.fields, QLatin1String("where"));
    if (!where.isEmpty()) msg += QStringLiteral(" (in ") + where + QLatin1Char(')');
    return msg;
}

} // namespace sb::protocol
