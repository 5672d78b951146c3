#pragma once
// The layout of a detached run's directory on the cluster and the records of
// its files (docs/protocol.md, "The run directory"): the one definition the
// supervisor writes by and every client reads by. Every file but state.json
// is append-only, one JSON object a line, so a reader resumes from a byte
// offset. Torch-free, Qt-free.
//
//   spec.json                      what to run (written by the launcher)
//   plan.json                      the plan bytes that were validated and recorded
//   state.json                     the supervisor's state, replaced atomically on each change (run_state.hpp)
//   supervisor.lock                held (flock) for as long as the supervisor lives
//   supervisor.log                 the supervisor's own messages: {"t":..,"l":".."}
//   attempt-A/rank-R.events        rank R's events in attempt A (the core's @sb lines, prefix removed)
//   attempt-A/rank-R.log           rank R's other output: {"t":..,"s":"o"|"e","l":".."}

#include "json/json.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace sb::protocol {

inline constexpr char kSpecFile[] = "spec.json";
inline constexpr char kPlanFile[] = "plan.json";
inline constexpr char kStateFile[] = "state.json";
inline constexpr char kLockFile[] = "supervisor.lock";
inline constexpr char kSupervisorLog[] = "supervisor.log";

std::string attemptDir(int attempt);                  // "attempt-0"
std::string rankEventsFile(int attempt, int rank);    // "attempt-0/rank-3.events"
std::string rankLogFile(int attempt, int rank);       // "attempt-0/rank-3.log"
// Parses a relative path of the layout above; false for anything else.
bool parseRankFile(std::string_view path, int* attempt, int* rank, bool* events);

// Invalid UTF-8 sequences become U+FFFD, so every line is valid JSON text.
std::string sanitizeUtf8(std::string_view bytes);

// A line of a log file: {"t":T,"s":"e","l":"..."}. The stream is 'o'
// (stdout), 'e' (stderr), 'm' (an event line the supervisor could not read,
// kept as text) or 0 (the supervisor's own messages: no "s").
struct LogLine {
    double t = 0;
    char stream = 0;
    std::string line;
};
std::string logRecord(double t, char stream, std::string_view line);
// nullopt for a record without its line.
std::optional<LogLine> parseLogRecord(std::string_view record);

} // namespace sb::protocol
