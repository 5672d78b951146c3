#include "fs_util.hpp"

#include "util/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::ckpt {

namespace fs = std::filesystem;

namespace {
std::string parentOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}
} // namespace

Status writeFileDurably(const std::string& path, const std::string& contents)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return sysError("cannot create", path);
    std::size_t done = 0;
    while (done < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const Status err = sysError("cannot write", path);
            ::close(fd);
            ::unlink(path.c_str()); // no part of a file is left behind (a full disk)
            return err;
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const Status err = sysError("cannot fsync", path);
        ::close(fd);
        ::unlink(path.c_str());
        return err;
    }
    if (::close(fd) != 0) {
        const Status err = sysError("cannot close", path);
        ::unlink(path.c_str());
        return err;
    }
    return {};
}

Status writeAlignedFileDurably(const std::string& path, const void* data, std::size_t bytes)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, 0644);
    bool direct = fd >= 0;
    if (!direct && errno == EINVAL) fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return sysError("cannot create", path);
    // No part of a file is left behind (a full disk): the save's folder is removed too, by rank 0.
    auto fail = [&](const char* what) {
        const Status err = sysError(what, path);
        ::close(fd);
        ::unlink(path.c_str());
        return err;
    };
    const auto* p = static_cast<const char*>(data);
    const std::size_t padded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
    constexpr std::size_t kChunk = 8u << 20; // a few requests in flight per call
    std::size_t done = 0;
    while (done < (direct ? padded : bytes)) {
        // A short direct write leaves an unaligned offset: finish through the cache.
        if (direct && done % kPageBytes != 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT) == 0) direct = false;
        const std::size_t n = std::min(kChunk, (direct ? padded : bytes) - done);
        const ssize_t w = ::pwrite(fd, p + done, n, static_cast<off_t>(done));
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EINVAL && direct) { // opened, but direct writes refused (some FUSE, odd block sizes)
            if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT) != 0) return fail("cannot write");
            direct = false;
            continue;
        }
        if (w <= 0) return fail("cannot write");
        done += static_cast<std::size_t>(w);
    }
    if (done > bytes && ::ftruncate(fd, static_cast<off_t>(bytes)) != 0) return fail("cannot truncate");
    if (::fsync(fd) != 0) return fail("cannot fsync");
    if (::close(fd) != 0) {
        const Status err = sysError("cannot close", path);
        ::unlink(path.c_str());
        return err;
    }
    return {};
}

Status fsyncPath(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return sysError("cannot open", path);
    const int rc = ::fsync(fd);
    const Status err = rc != 0 ? sysError("cannot fsync", path) : Status();
    ::close(fd);
    return err;
}

Status makeDirs(const std::string& path)
{
    std::error_code ec;
    if (path.empty() || isDir(path)) return {};
    fs::create_directories(path, ec);
    if (ec) return Status::error("cannot create folder " + path + ": " + ec.message());
    return {};
}

Status removeTree(const std::string& path)
{
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) return Status::error("cannot remove " + path + ": " + ec.message());
    return {};
}

Status renameDurably(const std::string& from, const std::string& to)
{
    if (::rename(from.c_str(), to.c_str()) != 0) return sysError("cannot rename " + from + " to", to);
    return fsyncPath(parentOf(to));
}

std::vector<std::string> listDir(const std::string& path)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) out.push_back(it->path().filename().string());
    return out;
}

Status preadFully(int fd, const std::string& path, std::uint64_t offset, void* out, std::size_t bytes)
{
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, static_cast<char*>(out) + got, bytes - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return Status::error(path + ": truncated (" + (n == 0 ? std::string("unexpected end of file") : std::string(std::strerror(errno))) + ")");
        got += static_cast<std::size_t>(n);
    }
    return {};
}

Status readFileRange(const std::string& path, std::uint64_t offset, void* out, std::size_t bytes)
{
    const Result<int> opened = openRegularFile(path);
    if (!opened) return opened.status();
    const Status err = preadFully(opened.value(), path, offset, out, bytes);
    ::close(opened.value());
    return err;
}

Result<int> openRegularFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return sysError("cannot open", path);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const Status error = sysError("cannot stat", path);
        ::close(fd);
        return error;
    }
    if (!S_ISREG(st.st_mode)) {
        const char* kind = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                        : S_ISDIR(st.st_mode) ? "a folder" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
        ::close(fd);
        return Status::error(path + ": is " + kind + ", not a regular file; refusing to read it");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes)
{
    const Result<int> opened = openRegularFile(path);
    if (!opened) return opened.status();
    const int fd = opened.value();
    struct stat st {};
    ::fstat(fd, &st);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > maxBytes) {
        ::close(fd);
        return Status::error(path + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(maxBytes) + " allowed");
    }
    std::string out(static_cast<std::size_t>(size), '\0');
    const Status err = preadFully(fd, path, 0, out.data(), out.size());
    // A file that grew while being read is read as it was when opened.
    ::close(fd);
    if (!err) return err;
    return out;
}

bool isDir(const std::string& path)
{
    std::error_code ec;
    return fs::is_directory(path, ec);
}

bool exists(const std::string& path)
{
    std::error_code ec;
    return fs::exists(path, ec);
}

} // namespace sb::ckpt
