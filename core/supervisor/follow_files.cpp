#include "follow_files.hpp"

#include "run_dir.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

#ifdef __linux__
#include <sys/inotify.h>
#endif

namespace sb::supervise {

namespace {

bool isNumberedName(const std::string& name, const char* prefix, const char* suffix, int* n)
{
    const std::string p = prefix, s = suffix;
    if (name.size() <= p.size() + s.size() || name.compare(0, p.size(), p) != 0 ||
        name.compare(name.size() - s.size(), s.size(), s) != 0)
        return false;
    const std::string digits = name.substr(p.size(), name.size() - p.size() - s.size());
    if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    *n = std::stoi(digits);
    return std::to_string(*n) == digits;
}

// The names of `dirFd` shaped PREFIX<n>SUFFIX, by n. Listed through a
// descriptor of its own (a directory stream moves its offset).
std::vector<std::pair<int, std::string>> listNumbered(int dirFd, const char* prefix, const char* suffix)
{
    std::vector<std::pair<int, std::string>> out;
    const int fd = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return out;
    DIR* d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return out;
    }
    while (dirent* e = ::readdir(d)) {
        int n = 0;
        if (isNumberedName(e->d_name, prefix, suffix, &n)) out.emplace_back(n, e->d_name);
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// Why `name` in `dirFd` is not what was expected, from what it is.
std::string kindOf(int dirFd, const char* name, int openErrno)
{
    struct stat st {};
    if (::fstatat(dirFd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) return fileKindWords(st.st_mode);
    return std::strerror(openErrno);
}

// Ingest order: the supervisor's log, then per attempt its events, then its logs, by rank.
auto orderKey(const Tail& t) { return std::make_tuple(t.attempt, !t.events, t.rank); }

} // namespace

const char* fileKindWords(mode_t mode)
{
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

int openRegularAt(int dirFd, const char* name, std::string* why)
{
    why->clear();
    const int fd = ::openat(dirFd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0) {
        if (errno != ENOENT) *why = errno == ELOOP ? std::string("a symbolic link") : std::string("cannot open: ") + std::strerror(errno);
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = fileKindWords(st.st_mode);
        ::close(fd);
        return -1;
    }
    return fd;
}

bool RankSet::contains(int rank) const
{
    if (kind == Kind::All) return true;
    if (kind == Kind::None) return false;
    return std::binary_search(ranks.begin(), ranks.end(), rank);
}

Result<RankSet> RankSet::parse(std::string_view text)
{
    RankSet r;
    if (text == "all") r.kind = Kind::All;
    else if (text == "none") r.kind = Kind::None;
    else if (text == "rank0") r = only(0);
    else {
        r.kind = Kind::List;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            const std::string_view item = text.substr(start, comma - start);
            if (item.empty() || item.size() > 7 || !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return Status::error("expected all, none, rank0 or ranks like 0,5,17, not \"" + std::string(text) + "\"");
            r.ranks.push_back(std::stoi(std::string(item)));
            if (comma == text.size()) break;
            start = comma + 1;
        }
        std::sort(r.ranks.begin(), r.ranks.end());
        r.ranks.erase(std::unique(r.ranks.begin(), r.ranks.end()), r.ranks.end());
    }
    return r;
}

FileSet::FileSet(int runDirFd, std::string runDir, RankSet events, RankSet logs, RankSet liveSteps,
                 std::map<std::string, long long> offsets)
    : runDirFd_(runDirFd), runDir_(std::move(runDir)), events_(std::move(events)), logs_(std::move(logs)), liveSteps_(std::move(liveSteps)),
      offsets_(std::move(offsets))
{
#ifdef __linux__
    // SHARDBENCH_FOLLOW_NO_INOTIFY=1 takes the fallback (tests; file systems whose writers are elsewhere).
    const char* off = std::getenv("SHARDBENCH_FOLLOW_NO_INOTIFY");
    if (!off || std::string_view(off) != "1") inotifyFd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotifyFd_ >= 0) addWatch(std::string());
#endif
}

FileSet::~FileSet()
{
    if (inotifyFd_ >= 0) ::close(inotifyFd_);
    for (const auto& [attempt, fd] : attemptFds_)
        if (fd >= 0) ::close(fd);
}

int FileSet::attemptFolder(int attempt, const std::string& name)
{
    const auto it = attemptFds_.find(attempt);
    if (it != attemptFds_.end()) return it->second;
    const int fd = ::openat(runDirFd_, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        refuseName(name, kindOf(runDirFd_, name.c_str(), err) + ", not a folder");
        // A link or a file stays what it is; anything else (out of descriptors) is tried again.
        if (err == ELOOP || err == ENOTDIR) attemptFds_[attempt] = -1;
        return -1;
    }
    attemptFds_[attempt] = fd;
    return fd;
}

int FileSet::folderOf(const Tail& t) const
{
    if (t.attempt < 0) return runDirFd_;
    const auto it = attemptFds_.find(t.attempt);
    return it == attemptFds_.end() ? -1 : it->second;
}

void FileSet::refuse(Tail& t, const std::string& why)
{
    t.refused = true;
    refuseName(t.name, why);
}

void FileSet::refuseName(const std::string& name, const std::string& why)
{
    if (!refused_.emplace(name, why).second) return;
    newRefusals_.emplace_back(name, why);
}

std::vector<std::pair<std::string, std::string>> FileSet::takeRefusals() { return std::exchange(newRefusals_, {}); }

void FileSet::addWatch(const std::string& dir)
{
#ifdef __linux__
    if (inotifyFd_ < 0) return;
    for (const auto& [wd, d] : watchDirs_)
        if (d == dir) return;
    const std::string path = dir.empty() ? runDir_ : join(runDir_, dir.substr(0, dir.size() - 1));
    // IN_DONT_FOLLOW: an attempt folder replaced by a link is not watched through it.
    const int wd = ::inotify_add_watch(inotifyFd_, path.c_str(),
                                       IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR |
                                           (dir.empty() ? 0 : IN_DONT_FOLLOW));
    if (wd < 0) { // out of watches (fs.inotify.max_user_watches), or a file system without inotify
        ::close(inotifyFd_);
        inotifyFd_ = -1;
        watchDirs_.clear();
        return;
    }
    watchDirs_[wd] = dir;
#else
    (void)dir;
#endif
}

Tail* FileSet::find(const std::string& name)
{
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &tails_[it->second];
}

void FileSet::rescan()
{
    std::vector<Tail> added;
    auto add = [&](const std::string& name, const std::string& base, int attempt, int rank, bool events) {
        if (Tail* t = find(name)) {
            t->size = -1;
            return;
        }
        Tail t;
        t.name = name;
        t.base = base;
        t.attempt = attempt;
        t.rank = rank;
        t.events = events;
        t.live = attempt < 0 || !events || liveSteps_.contains(rank);
        const auto off = offsets_.find(name);
        t.done = t.scan = off == offsets_.end() ? 0 : off->second;
        added.push_back(std::move(t));
    };
    add(protocol::kSupervisorLog, protocol::kSupervisorLog, -1, -1, false);
    for (const auto& [attempt, adir] : listNumbered(runDirFd_, "attempt-", "")) {
        const int dirFd = attemptFolder(attempt, adir);
        if (dirFd < 0) continue;
        addWatch(adir + "/"); // before listing: a file created in between is seen either way
        const std::string base = adir + "/";
        for (const auto& [rank, name] : listNumbered(dirFd, "rank-", ".events"))
            if (events_.contains(rank)) add(base + name, name, attempt, rank, true);
        for (const auto& [rank, name] : listNumbered(dirFd, "rank-", ".log"))
            if (logs_.contains(rank)) add(base + name, name, attempt, rank, false);
    }
    if (!added.empty()) {
        for (Tail& t : added) tails_.push_back(std::move(t));
        std::stable_sort(tails_.begin(), tails_.end(), [](const Tail& a, const Tail& b) { return orderKey(a) < orderKey(b); });
        index_.clear();
        for (std::size_t i = 0; i < tails_.size(); ++i) index_[tails_[i].name] = i;
    }
    due_.assign(tails_.size(), true);
    needRescan_ = false;
    stateTouched_ = true;
}

void FileSet::readEvents()
{
#ifdef __linux__
    if (inotifyFd_ < 0) return;
    alignas(inotify_event) char buf[16384];
    for (;;) {
        const ssize_t n = ::read(inotifyFd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        for (char* p = buf; p < buf + n;) {
            const auto* e = reinterpret_cast<const inotify_event*>(p);
            p += sizeof(inotify_event) + e->len;
            if (e->mask & IN_Q_OVERFLOW) {
                needRescan_ = true;
                continue;
            }
            const auto dir = watchDirs_.find(e->wd);
            if (dir == watchDirs_.end() || e->len == 0) continue;
            const std::string name = dir->second + e->name;
            if (dir->second.empty() && name == protocol::kStateFile) {
                stateTouched_ = true;
                continue;
            }
            const auto it = index_.find(name);
            if (it != index_.end()) due_[it->second] = true;
            else if ((e->mask & (IN_CREATE | IN_MOVED_TO)) &&
                     (dir->second.empty() ? (e->mask & IN_ISDIR) != 0 : name.find("/rank-") != std::string::npos))
                needRescan_ = true; // a new attempt or rank file
        }
    }
#endif
}

std::vector<Tail*> FileSet::takeDue(bool alsoLive)
{
    readEvents();
    if (needRescan_) rescan();
    std::vector<Tail*> out;
    for (std::size_t i = 0; i < tails_.size(); ++i) {
        if (!tails_[i].refused && (due_[i] || (alsoLive && tails_[i].live))) out.push_back(&tails_[i]);
        due_[i] = false;
    }
    return out;
}

std::vector<Tail*> FileSet::all()
{
    std::vector<Tail*> out;
    for (Tail& t : tails_)
        if (!t.refused) out.push_back(&t);
    return out;
}

bool FileSet::stateTouched()
{
    readEvents();
    const bool touched = stateTouched_ || inotifyFd_ < 0;
    stateTouched_ = false;
    return touched;
}

} // namespace sb::supervise
