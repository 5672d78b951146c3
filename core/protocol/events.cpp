#include "events.hpp"

#include <cmath>

#include "json_fields.hpp"
#include "step_metrics.hpp"

#include <algorithm>
#include <limits>

namespace sb::protocol {

namespace {
std::string str(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v ? v->asString() : std::string();
}
long long integer(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v ? v->asInt() : 0;
}
double number(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v ? v->asDouble() : 0.0;
}
template <class T>
void setIf(json::Value& o, const char* key, const std::optional<T>& v)
{
    if (v) o.set(key, *v);
}
// A count or id: -1 when absent, not a number or negative.
long long countOr(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v && v->isNumber() && v->asDouble() >= 0 ? v->asInt() : -1;
}
} // namespace

Status versionProblem(long long v, const std::string& source)
{
    if (v <= kVersion) return {};
    return Status::error("event protocol version " + std::to_string(v) + " is newer than this reader's " + std::to_string(kVersion) +
           (source.empty() ? std::string() : " (" + source + ")") + "; update shardbench");
}

json::Value Hello::toJson() const
{
    json::Value o = json::Value::object();
    o.set("host", host);
    o.set("pid", pid);
    o.set("device", device);
    o.set("torch", torch);
    o.set("core_version", coreVersion);
    o.set("world", world);
    o.set("local_rank", localRank);
    o.set("local_world", localWorld);
    o.set("threads", threads);
    o.set("master", master);
    o.set("env", env);
    return o;
}

Hello Hello::fromJson(const json::Value& o)
{
    Hello h;
    h.host = str(o, "host");
    h.pid = countOr(o, "pid");
    h.device = str(o, "device");
    h.torch = str(o, "torch");
    h.coreVersion = str(o, "core_version");
    h.world = static_cast<int>(integer(o, "world"));
    h.localRank = static_cast<int>(std::min<long long>(countOr(o, "local_rank"), std::numeric_limits<int>::max()));
    h.localWorld = static_cast<int>(integer(o, "local_world"));
    h.threads = static_cast<int>(integer(o, "threads"));
    h.master = str(o, "master");
    h.env = str(o, "env");
    return h;
}

json::Value PlanEvent::toJson() const
{
    json::Value list = json::Value::array();
    for (const PlanUnit& u : units) {
        json::Value ju = json::Value::object();
        ju.set("module", u.module);
        ju.set("params", u.params);
        setIf(ju, "shard_numel", u.shardNumel);
        setIf(ju, "offloaded", u.offloaded);
        list.push(ju);
    }
    json::Value o = json::Value::object();
    o.set("params_total", paramsTotal);
    o.set("units", list);
    o.set("world", world);
    o.set("shard_size", shardSize);
    o.set("replicate", replicate);
    o.set("sharded", sharded);
    setIf(o, "collectives", collectives);
    return o;
}

PlanEvent PlanEvent::fromJson(const json::Value& o)
{
    PlanEvent p;
    p.paramsTotal = integer(o, "params_total");
    if (const json::Value* list = o.find("units"); list && list->isArray())
        for (const json::Value& ju : list->asArray())
            p.units.push_back({str(ju, "module"), integer(ju, "params"), optInt(ju, "shard_numel"), optBool(ju, "offloaded")});
    p.world = static_cast<int>(integer(o, "world"));
    p.shardSize = static_cast<int>(integer(o, "shard_size"));
    p.replicate = static_cast<int>(integer(o, "replicate"));
    const json::Value* s = o.find("sharded");
    p.sharded = s && s->asBool();
    p.collectives = optString(o, "collectives");
    return p;
}

json::Value Step::toJson() const
{
    json::Value o = json::Value::object();
    o.set("step", step);
    o.set("steps", steps);
    for (const StepMetric& m : stepMetrics()) {
        if (m.integer) o.set(m.name, static_cast<long long>(this->*m.whole));
        else if (!std::isnan(this->*m.real)) o.set(m.name, this->*m.real);
    }
    return o;
}

Step Step::fromJson(const json::Value& o)
{
    Step s;
    s.step = integer(o, "step");
    s.steps = integer(o, "steps");
    for (const StepMetric& m : stepMetrics())
        if (const json::Value* v = o.find(m.name)) m.set(s, *v);
    return s;
}

json::Value CheckpointEvent::toJson() const
{
    json::Value o = json::Value::object();
    o.set("step", step);
    o.set("path", path);
    setIf(o, "bytes", bytes);
    setIf(o, "ms", ms);
    o.set("kind", kind);
    setIf(o, "async", async);
    setIf(o, "stall_ms", stallMs);
    setIf(o, "world", world);
    o.set("status", status);
    setIf(o, "checksum", checksum);
    setIf(o, "message", message);
    return o;
}

CheckpointEvent CheckpointEvent::fromJson(const json::Value& o)
{
    CheckpointEvent c;
    c.step = integer(o, "step");
    c.path = str(o, "path");
    c.kind = str(o, "kind");
    c.status = str(o, "status");
    c.bytes = optInt(o, "bytes");
    c.ms = optNumber(o, "ms");
    c.stallMs = optNumber(o, "stall_ms");
    c.async = optBool(o, "async");
    if (auto w = optInt(o, "world")) c.world = static_cast<int>(*w);
    c.checksum = optString(o, "checksum");
    c.message = optString(o, "message");
    return c;
}

json::Value Error::toJson() const
{
    json::Value o = json::Value::object();
    o.set("message", message);
    if (!where.empty()) o.set("where", where);
    return o;
}

Error Error::fromJson(const json::Value& o) { return {str(o, "message"), str(o, "where")}; }

json::Value Done::toJson() const
{
    json::Value o = json::Value::object();
    o.set("status", status);
    setIf(o, "steps", steps);
    setIf(o, "final_loss", finalLoss);
    setIf(o, "peak_bytes", peakBytes);
    return o;
}

Done Done::fromJson(const json::Value& o)
{
    Done d;
    d.status = str(o, "status");
    d.steps = optInt(o, "steps");
    d.finalLoss = optNumber(o, "final_loss");
    d.peakBytes = optInt(o, "peak_bytes");
    return d;
}

json::Value System::toJson() const
{
    json::Value o = json::Value::object();
#define SB_SYSTEM_SET(name, member, kind) setIf(o, name, member);
    SB_SYSTEM_FIELDS(SB_SYSTEM_SET)
#undef SB_SYSTEM_SET
    return o;
}

System System::fromJson(const json::Value& o)
{
    System s;
#define SB_SYSTEM_READ_real(name) optNumber(o, name)
#define SB_SYSTEM_READ_whole(name) optInt(o, name)
#define SB_SYSTEM_READ(name, member, kind) s.member = SB_SYSTEM_READ_##kind(name);
    SB_SYSTEM_FIELDS(SB_SYSTEM_READ)
#undef SB_SYSTEM_READ
#undef SB_SYSTEM_READ_whole
#undef SB_SYSTEM_READ_real
    return s;
}

namespace {
constexpr std::string_view kRankLogStart = "[rank ";
constexpr std::string_view kRankLogError = "error: ";
} // namespace

std::string rankLogLine(int rank, std::string_view message)
{
    return std::string(kRankLogStart) + std::to_string(rank) + "] " + std::string(message);
}

std::string rankErrorLogLine(int rank, std::string_view message) { return rankLogLine(rank, std::string(kRankLogError) + std::string(message)); }

bool isRankProgressLine(std::string_view line)
{
    if (line.substr(0, kRankLogStart.size()) != kRankLogStart) return false;
    std::size_t i = kRankLogStart.size();
    const std::size_t digits = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    if (i == digits || line.substr(i, 2) != "] ") return false;
    return line.substr(i + 2, kRankLogError.size()) != kRankLogError;
}

std::string formatLine(const Envelope& e, const json::Value& fields)
{
    json::Value line = json::Value::object();
    line.set("type", e.type);
    line.set("v", e.v);
    line.set("rank", e.rank);
    line.set("t", e.t);
    line.set("run_id", e.runId);
    for (const auto& [k, v] : fields.asObject()) line.set(k, v);
    return kLinePrefix + line.dump() + "\n";
}

EventLine parseEventLine(std::string_view text, const std::string& source)
{
    EventLine out;
    const std::string_view prefix(kLinePrefix);
    if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    json::ParseResult r = json::parse(text);
    if (!r) {
        out.malformed = "invalid JSON at " + r.error.toString();
        return out;
    }
    if (!r.value->isObject()) {
        out.malformed = "event is not a JSON object";
        return out;
    }
    const json::Value* type = r.value->find("type");
    if (!type || !type->isString() || type->asString().empty()) {
        out.malformed = "event without a \"type\"";
        return out;
    }
    out.envelope.type = type->asString();
    // A line without "v" predates the field: version 1.
    const json::Value* v = r.value->find("v");
    const long long version = v && v->isNumber() ? v->asInt() : 1;
    out.envelope.v = static_cast<int>(version > kVersion ? kVersion + 1 : version);
    out.problem = versionProblem(version, source).message();
    out.envelope.rank = static_cast<int>(integer(*r.value, "rank"));
    out.envelope.t = number(*r.value, "t");
    out.envelope.runId = str(*r.value, "run_id");
    out.body = std::move(*r.value);
    out.ok = out.problem.empty();
    return out;
}

} // namespace sb::protocol
