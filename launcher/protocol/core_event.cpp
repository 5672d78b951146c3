#include "core_event.hpp"

#include "step_fields.hpp"

#include <algorithm>

#include <cmath>
#include <limits>

namespace sb::protocol {

namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

const json::Value* numberField(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v && v->isNumber() ? v : nullptr;
}

// A whole number in int's range, else `fallback` (2.5 steps are none).
int whole(const json::Value* v, int fallback)
{
    const double d = v ? v->asDouble() : std::numeric_limits<double>::quiet_NaN();
    if (!(d == std::floor(d) && d >= std::numeric_limits<int>::min() && d <= std::numeric_limits<int>::max())) return fallback;
    return static_cast<int>(d);
}

QString qText(const std::string& s) { return QString::fromStdString(s); }

int toInt(long long v) { return static_cast<int>(std::clamp<long long>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max())); }

} // namespace

std::optional<StepMetrics> stepFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::step)) return std::nullopt;
    const json::Value& o = e.body;
    const json::Value* step = numberField(o, "step");
    if (!step) return std::nullopt;
    StepMetrics m;
    m.rank = e.rank;
    m.t = e.t;
    m.step = whole(step, 0);
    m.steps = whole(numberField(o, "steps"), 0);
    for (const StepField& f : stepFields()) {
        const json::Value* v = numberField(o, f.name());
        if (!f.integer()) {
            m.*f.real = v ? v->asDouble() : kAbsent;
            continue;
        }
        const double d = v ? v->asDouble() : -1;
        m.*f.count = std::isfinite(d) && d >= 0 ? v->asInt() : -1;
    }
    return m;
}

std::optional<CheckpointReport> checkpointFromEvent(const CoreEvent& e)
{
    if (e.type != QLatin1String(type::checkpoint)) return std::nullopt;
    const CheckpointEvent c = CheckpointEvent::fromJson(e.body);
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
    const Done d = Done::fromJson(e.body);
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
    const Hello h = Hello::fromJson(e.body);
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
    const Error err = Error::fromJson(e.body);
    QString msg = err.message.empty() ? QStringLiteral("(no message)") : qText(err.message);
    if (!err.where.empty()) msg += QStringLiteral(" (in ") + qText(err.where) + QLatin1Char(')');
    return msg;
}

} // namespace sb::protocol
