#include "run_dir.hpp"

#include "json/json.hpp"
#include "util/atomic_file.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::supervise {

double unixNow()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() / 1e6;
}

std::string thisHostName()
{
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string join(const std::string& dir, const std::string& name)
{
    if (dir.empty() || dir.back() == '/') return dir + name;
    return dir + "/" + name;
}

AppendFile::~AppendFile() { close(); }

Status AppendFile::open(const std::string& path)
{
    close();
    path_ = path;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) return sysError("cannot open", path);
    return {};
}

bool AppendFile::append(std::string_view line)
{
    if (fd_ < 0) {
        errno = EBADF;
        return false;
    }
    std::string buf;
    buf.reserve(line.size() + 1);
    buf.append(line);
    buf += '\n';
    // This process is the file's only writer: where it ends now is where the line starts.
    const off_t start = ::lseek(fd_, 0, SEEK_END);
    if (writeAll(fd_, buf)) return true;
    const int err = errno;
    if (start >= 0 && ::ftruncate(fd_, start) != 0) {
        // Left with part of a line: end it, so that the next line stays whole (a reader skips the bad one).
        const ssize_t ignored = ::write(fd_, "\n", 1);
        (void)ignored;
    }
    errno = err;
    return false;
}

void AppendFile::sync()
{
    if (fd_ >= 0) ::fsync(fd_);
}

void AppendFile::close()
{
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

Result<std::string> readSmallFile(const std::string& path, std::size_t maxBytes)
{
    // O_NONBLOCK: a FIFO in place of the file must not hang the reader.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return sysError("cannot read", path);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::size_t>(st.st_size) > maxBytes) {
        ::close(fd);
        return Status::error(path + (S_ISREG(st.st_mode) ? " is too large" : " is not a regular file"));
    }
    std::string out;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const Status why = sysError("cannot read", path);
            ::close(fd);
            return why;
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > maxBytes) break;
    }
    ::close(fd);
    return out;
}

Result<std::string> readStateText(const std::string& runDir)
{
    Result<std::string> read = readSmallFile(join(runDir, protocol::kStateFile));
    if (!read) return read;
    std::string& state = read.value();
    while (!state.empty() && (state.back() == '\n' || state.back() == ' ')) state.pop_back();
    return read;
}

Status makeDirs(const std::string& path)
{
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) return Status::error("cannot create " + path + ": " + ec.message());
    if (!std::filesystem::is_directory(path, ec)) return Status::error(path + " is not a folder");
    return {};
}

Result<int> tryLockFile(const std::string& path)
{
    // No link followed, no FIFO waited on: the lock is a regular file of the run directory.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
    if (fd < 0) return errno == ELOOP ? Status::error(path + " is a symbolic link, not a regular file") : sysError("cannot open", path);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Status::error(path + " is not a regular file");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const bool busy = errno == EWOULDBLOCK;
        const Status why = busy ? Status() : sysError("cannot lock", path);
        ::close(fd);
        if (busy) return -1;
        return why;
    }
    return fd;
}

bool isLockHeld(const std::string& path)
{
    // A FIFO in its place must not hang the caller; a link or a special file holds no lock of ours.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return false;
    struct stat st {};
    const bool held = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

} // namespace sb::supervise
