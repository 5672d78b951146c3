// Machine events on stdout (`@sb ` + one JSON object per line, docs/protocol.md)
// and human logs on stderr. Thread-safe: the async checkpoint writer emits too.
#pragma once

#include "event_log.hpp"

#include "json/json.hpp"
#include "protocol/core_exit.hpp"
#include "protocol/events.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace sb::engine {

inline constexpr int kProtocolVersion = protocol::kVersion;
using protocol::CoreExit;

class Events {
public:
    void configure(int rank, std::string runId);
    // Adds type, v, rank, t and run_id to `fields` and prints the line.
    void emit(const char* type, const json::Value& fields = json::Value::object());
    // One typed event of core/protocol (Hello, PlanEvent, Step, ...), and its
    // line of the rank's log (event_log.hpp) when it has one.
    template <class Event>
    void emit(const Event& e)
    {
        emit(Event::kType, e.toJson());
        if (const std::optional<std::string> line = logLine(e)) log(*line);
    }
    void error(const std::string& message, const std::string& where = {});
    // The first error() of this process ("" when none): what it failed of.
    const std::string& firstError() const { return firstError_; }
    // "[rank 0] message" on stderr (protocol::rankLogLine).
    void log(const std::string& message);

    static Events& instance();

private:
    void write(const std::string& line); // one line on stderr
    int rank_ = 0;
    std::string runId_;
    std::string firstError_;
};

inline Events& events() { return Events::instance(); }

double unixSeconds();
// Milliseconds since t0 on the monotonic clock: step, phase and wait timings.
inline double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace sb::engine
