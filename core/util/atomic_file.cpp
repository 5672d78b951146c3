#include "util/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sb {

namespace {

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

} // namespace

Status sysError(const std::string& what, const std::string& path)
{
    return Status::error(what + " " + path + ": " + std::strerror(errno));
}

bool writeAll(int fd, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::string errnoWords(int err)
{
    const char* name = err == ENOSPC ? "ENOSPC" : err == EDQUOT ? "EDQUOT" : err == EIO ? "EIO" : err == EROFS ? "EROFS"
                     : err == EFBIG ? "EFBIG" : nullptr;
    std::string words = std::strerror(err);
    if (!words.empty() && words[0] >= 'A' && words[0] <= 'Z' && (words.size() < 2 || words[1] < 'A' || words[1] > 'Z'))
        words[0] = static_cast<char>(words[0] - 'A' + 'a');
    return name ? words + " (" + name + ")" : words;
}

Status writeFileAtomic(const std::string& path, std::string_view data, unsigned mode)
{
    // A name no other writer uses: this process's id and a counter of its
    // own; O_EXCL skips one a crashed process with the same id left behind.
    static std::atomic<unsigned> counter{0};
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 64 && fd < 0; ++attempt) {
        tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, static_cast<mode_t>(mode));
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) return sysError("cannot write", path);
    // Removes the temporary file and keeps the failed call's errno for the caller (ENOSPC: a full disk).
    auto failed = [&](const char* what, const std::string& named, bool open) {
        const int err = errno;
        const Status why = sysError(what, named);
        if (open) ::close(fd);
        ::unlink(tmp.c_str());
        errno = err;
        return why;
    };
    // Every byte is checked, the fsync and the close too: a file system may
    // report a full disk only there (NFS, delayed allocation).
    if (!writeAll(fd, data) || ::fsync(fd) != 0) return failed("cannot write", path, true);
    if (::close(fd) != 0) return failed("cannot write", path, false);
    if (::rename(tmp.c_str(), path.c_str()) != 0) return failed("cannot replace", path, false);
    // The rename itself is durable once the folder is (best effort: some
    // file systems refuse to fsync a folder).
    const int dfd = ::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return {};
}

} // namespace sb
