// The layout of a run directory on the cluster and the file primitives the
// supervisor and the follower share. Every file but state.json is
// append-only, one JSON object a line, so a reader resumes from a byte offset.
//
//   spec.json                      what to run (written by the launcher)
//   plan.json                      the plan bytes that were validated and recorded
//   state.json                     the supervisor's state, replaced atomically on each change
//   supervisor.lock                held (flock) for as long as the supervisor lives
//   supervisor.log                 the supervisor's own messages: {"t":..,"l":".."}
//   attempt-A/rank-R.events        rank R's events in attempt A (the core's @sb lines, prefix removed)
//   attempt-A/rank-R.log           rank R's other output: {"t":..,"s":"o"|"e","l":".."}
#pragma once

#include "util/status.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace sb::supervise {

inline constexpr char kSpecFile[] = "spec.json";
inline constexpr char kPlanFile[] = "plan.json";
inline constexpr char kStateFile[] = "state.json";
inline constexpr char kLockFile[] = "supervisor.lock";
inline constexpr char kSupervisorLog[] = "supervisor.log";
// state.json's "version": a reader refuses a newer one by name (fields may be
// added within a version; a change a reader would misread makes a new one).
inline constexpr int kStateVersion = 1;
// The supervisor rewrites state.json at least this often (its "refresh_s"), so
// a client can tell a stopped (SIGSTOP) supervisor that still holds its lock.
inline constexpr double kStateRefreshS = 5;

std::string attemptDir(int attempt);                  // "attempt-0"
std::string rankEventsFile(int attempt, int rank);    // "attempt-0/rank-3.events"
std::string rankLogFile(int attempt, int rank);       // "attempt-0/rank-3.log"
// Parses a relative path of the layout above; false for anything else.
bool parseRankFile(std::string_view path, int* attempt, int* rank, bool* events);

double unixNow();
std::string thisHostName();
std::string join(const std::string& dir, const std::string& name);

// Invalid UTF-8 sequences become U+FFFD, so every line is valid JSON text.
std::string sanitizeUtf8(std::string_view bytes);
// {"t":T,"s":"e","l":"..."} (stream 0: no "s").
std::string logRecord(double t, char stream, std::string_view line);

// An append-only file: each append is one write(2) of whole lines.
class AppendFile {
public:
    AppendFile() = default;
    ~AppendFile();
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;
    Status open(const std::string& path);
    // Adds the line and its newline, or nothing: a line a full disk cut short
    // is cut off again, so the next line starts a line. False (errno says
    // why) when the line is not in the file.
    bool append(std::string_view line);
    void sync();
    void close();
    bool isOpen() const { return fd_ >= 0; }
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// Reads a regular file of at most `maxBytes`.
Result<std::string> readSmallFile(const std::string& path, std::size_t maxBytes = 64u << 20);
// RUN_DIR/state.json as written, without its trailing newline (not checked as JSON).
Result<std::string> readStateText(const std::string& runDir);
// The folder and its missing parents (std::filesystem); one that exists is ok.
Status makeDirs(const std::string& path);

// The lock that says the supervisor is alive. tryLock keeps the descriptor
// open (and the lock held) on success. Both refuse a lock file that is not a
// regular file (a link, a FIFO: opened without following or blocking).
// The descriptor, -1 when another process holds the lock, or why it cannot be taken.
Result<int> tryLockFile(const std::string& path);
bool isLockHeld(const std::string& path);

} // namespace sb::supervise
