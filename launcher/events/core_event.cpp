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

std::optional<CheckpointEvent> checkpointFromEvent(const CoreEvent& e)
{
    std::optional<CheckpointEvent> c = eventAs<CheckpointEvent>(e);
    if (c && c->path.empty()) return std::nullopt;
    return c;
}

QString errorText(const CoreEvent& e)
{
    const Error err = Error::fromJson(e.body);
    QString msg = err.message.empty() ? QStringLiteral("(no message)") : qText(err.message);
    if (!err.where.empty()) msg += QStringLiteral(" (in ") + qText(err.where) + QLatin1Char(')');
    return msg;
}

} // namespace sb::protocol
