#include "events.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

namespace sb::engine {

namespace {
std::mutex& outputMutex()
{
    static std::mutex m;
    return m;
}
} // namespace

double unixSeconds()
{
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

Events& Events::instance()
{
    static Events e;
    return e;
}

void Events::configure(int rank, std::string runId)
{
    rank_ = rank;
    runId_ = std::move(runId);
}

void Events::emit(const char* type, json::Value fields)
{
    json::Value line = json::Value::object();
    line.set("type", type);
    line.set("v", kProtocolVersion);
    line.set("rank", rank_);
    line.set("t", unixSeconds());
    line.set("run_id", runId_);
    for (const auto& [k, v] : fields.asObject()) line.set(k, v);
    const std::string text = "@sb " + line.dump() + "\n";
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void Events::error(const std::string& message, const std::string& where)
{
    json::Value f = json::Value::object();
    f.set("message", message);
    if (!where.empty()) f.set("where", where);
    emit("error", f);
    log("error: " + message);
}

void Events::log(const std::string& message)
{
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fprintf(stderr, "[rank %d] %s\n", rank_, message.c_str());
    std::fflush(stderr);
}

} // namespace sb::engine
