// The file primitives the supervisor and the follower share. The run
// directory's layout and records are defined in core/protocol
// (run_dir_layout.hpp, run_state.hpp).
#pragma once

#include "protocol/run_dir_layout.hpp"
#include "protocol/run_state.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace sb::supervise {

double unixNow();
std::string thisHostName();
std::string join(const std::string& dir, const std::string& name);

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
