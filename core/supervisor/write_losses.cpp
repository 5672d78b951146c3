#include "write_losses.hpp"

#include "run_dir.hpp"
#include "util/atomic_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::supervise {

namespace {

constexpr char kReserveFile[] = "state.reserve";

} // namespace

std::string writeErrorText(int err, const std::string& file) { return errnoWords(err) + " writing " + file; }

bool WriteLosses::lost(const std::string& file, int err)
{
    PerFile& f = files_[file];
    ++f.lost;
    ++total_;
    if (error_.empty()) error_ = writeErrorText(err, file);
    return f.stretch++ == 0;
}

long long WriteLosses::written(const std::string& file)
{
    const auto it = files_.find(file);
    if (it == files_.end()) return 0;
    const long long stretch = it->second.stretch;
    it->second.stretch = 0;
    return stretch;
}

void WriteLosses::stateNotWritten(int err) { stateError_ = writeErrorText(err, protocol::kStateFile); }

protocol::StateLosses WriteLosses::counts() const
{
    protocol::StateLosses c;
    c.lines = total_;
    if (total_ > 0) {
        for (const auto& [name, f] : files_) c.byFile.emplace_back(name, f.lost);
        c.writeError = error_;
    }
    // An earlier state could not be written (the clients saw an older one meanwhile).
    c.stateWriteError = stateError_;
    return c;
}

StateFile::~StateFile()
{
    if (reserveFd_ >= 0) ::close(reserveFd_);
}

void StateFile::growReserve()
{
    if (released_) return;
    if (reserveFd_ < 0) {
        reserveFd_ = ::open(join(dir_, kReserveFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
        if (reserveFd_ < 0) return;
    }
    struct stat st {};
    if (::fstat(reserveFd_, &st) != 0 || st.st_size >= kReserveBytes) return;
    // Blocks really set aside (not a sparse file); a file system that cannot
    // allocate this way keeps what it has, and the next state write tries again.
    (void)::posix_fallocate(reserveFd_, 0, kReserveBytes);
}

Status StateFile::write(std::string_view text)
{
    growReserve();
    const std::string path = join(dir_, protocol::kStateFile);
    Status written = writeFileAtomic(path, text);
    if (written.ok()) return written;
    int err = errno;
    struct stat st {};
    if ((err == ENOSPC || err == EDQUOT) && reserveFd_ >= 0 && ::fstat(reserveFd_, &st) == 0 && st.st_size > 0) {
        // Room for the new state and its temporary name; the old state's blocks come back at the rename.
        const off_t room = static_cast<off_t>(text.size()) + 16384;
        if (::ftruncate(reserveFd_, st.st_size > room ? st.st_size - room : 0) == 0) {
            written = writeFileAtomic(path, text);
            err = errno;
            growReserve();
        }
    }
    errno = err;
    return written;
}

void StateFile::releaseReserve()
{
    released_ = true;
    if (reserveFd_ >= 0) ::close(reserveFd_);
    reserveFd_ = -1;
    ::unlink(join(dir_, kReserveFile).c_str());
}

} // namespace sb::supervise
