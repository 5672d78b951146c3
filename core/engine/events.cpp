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

void Events::emit(const char* type, const json::Value& fields)
{
    const std::string text = protocol::formatLine({type, protocol::kVersion, rank_, unixSeconds(), runId_}, fields);
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void Events::error(const std::string& message, const std::string& where)
{
    if (firstError_.empty()) firstError_ = message;
    emit(protocol::Error{message, where});
    write(protocol::rankErrorLogLine(rank_, message));
}

void Events::log(const std::string& message) { write(protocol::rankLogLine(rank_, message)); }

void Events::write(const std::string& line)
{
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}

} // namespace sb::engine
