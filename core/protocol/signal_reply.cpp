#include "signal_reply.hpp"

#include "json_fields.hpp"

namespace sb::protocol {

namespace {

json::Value numbers(const std::vector<long long>& list)
{
    json::Value a = json::Value::array();
    for (long long n : list) a.push(n);
    return a;
}

std::vector<long long> numbersOf(const json::Value& o, const char* key)
{
    std::vector<long long> out;
    if (const json::Value* a = o.find(key); a && a->isArray())
        for (const json::Value& n : a->asArray())
            if (n.isNumber()) out.push_back(static_cast<long long>(n.asInt()));
    return out;
}

} // namespace

std::string signalReplyJson(const SignalReply& r)
{
    json::Value o = json::Value::object();
    o.set("alive", r.alive);
    o.set("pids", numbers(r.pids));
    o.set("signalled", numbers(r.signalled));
    if (r.startTime >= 0) o.set("start_time", r.startTime);
    o.set("run_dir", r.runDirExists);
    return o.dump();
}

std::optional<SignalReply> findSignalReply(std::string_view output)
{
    std::optional<SignalReply> found;
    while (!output.empty()) {
        const std::size_t end = output.find('\n');
        const std::string_view line = output.substr(0, end);
        output = end == std::string_view::npos ? std::string_view() : output.substr(end + 1);
        if (line.empty() || line[0] != '{') continue;
        const json::ParseResult parsed = json::parse(line);
        if (!parsed || !parsed.value->isObject()) continue;
        const json::Value& o = *parsed.value;
        SignalReply r;
        r.alive = optBool(o, "alive").value_or(false);
        r.pids = numbersOf(o, "pids");
        r.signalled = numbersOf(o, "signalled");
        r.startTime = optInt(o, "start_time").value_or(-1);
        r.runDirExists = optBool(o, "run_dir").value_or(true);
        found = r; // the last one, as a reader of the stream would keep
    }
    return found;
}

} // namespace sb::protocol
