// The files of a run directory a follower tails, and how it learns which of
// them changed without listing and stat-ing every rank file on every tick:
// inotify on Linux (one watch per directory), a periodic full rescan as the
// fallback and as the safety net for writers on other machines (NFS).
//
// A run directory is hostile ground (anyone who can write it can plant
// links and special files in it): every file is reached relative to a
// descriptor of its folder, never through a symbolic link (O_NOFOLLOW, an
// attempt folder opened with O_DIRECTORY|O_NOFOLLOW), never blocking
// (O_NONBLOCK: a FIFO must not hang the follower), and only a regular file
// is read. Anything else is refused once, with why (takeRefusals()).
#pragma once

#include "util/status.hpp"

#include <map>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sb::supervise {

// A set of ranks: none, all, or a list ("0", "0,5,17"; "rank0" reads "0").
struct RankSet {
    enum class Kind { None, All, List } kind = Kind::All;
    std::vector<int> ranks; // sorted, for List
    bool contains(int rank) const;
    // "all", "none", "rank0" or "0,5,17"; refused with why `text` is not a rank set.
    static Result<RankSet> parse(std::string_view text);
    static RankSet only(int rank) { return RankSet{Kind::List, {rank}}; }
    static RankSet none() { return RankSet{Kind::None, {}}; }
};

// One file of the run directory as the follower tails it.
struct Tail {
    std::string name;        // relative to the run directory
    std::string base;        // its name in its folder
    int attempt = -1, rank = -1; // -1: supervisor.log
    bool events = false;
    bool live = false;       // every line is sent as it comes (else: essential lines only while following)
    bool refused = false;    // not a regular file: never read
    long long done = 0;      // every line before it was sent
    long long scan = 0;      // live: lines before it were looked at (>= done)
    long long size = -1;     // when last looked at
};

// "a symbolic link", "a FIFO", "a folder", ... for a file's st_mode.
const char* fileKindWords(mode_t mode);

// Opens `name` in the folder `dirFd` for reading, without following a link
// or blocking; the descriptor, or -1 with `why` set: "" when it does not
// exist, else why it is refused (not a regular file) or cannot be opened.
int openRegularAt(int dirFd, const char* name, std::string* why);

class FileSet {
public:
    // `runDirFd`: the run directory, opened by the caller (kept open by it).
    FileSet(int runDirFd, std::string runDir, RankSet events, RankSet logs, RankSet liveSteps,
            std::map<std::string, long long> offsets);
    ~FileSet();
    FileSet(const FileSet&) = delete;
    FileSet& operator=(const FileSet&) = delete;

    // Lists the attempt folders and their rank files; new files join (at the
    // client's offset) and every file is due. Also (re)arms the watches.
    void rescan();
    // The files due since the last call, in ingest order: those inotify (or
    // a rescan) reported, plus `alsoLive` ones (their changes may come from
    // another machine). Clears the due marks. Refused files are left out.
    std::vector<Tail*> takeDue(bool alsoLive);
    std::vector<Tail*> all();
    bool watching() const { return inotifyFd_ >= 0; }
    // inotify said state.json or the folder list changed since the last call.
    bool stateTouched();

    // The folder `t` is in (the run directory or its attempt folder).
    int folderOf(const Tail& t) const;
    // Marks `t` refused (never read again) and queues the refusal.
    void refuse(Tail& t, const std::string& why);
    // Queues a refusal of a run-directory entry (once per name).
    void refuseName(const std::string& name, const std::string& why);
    // (name, why) of every refusal since the last call.
    std::vector<std::pair<std::string, std::string>> takeRefusals();

private:
    void addWatch(const std::string& dir);
    void readEvents();
    Tail* find(const std::string& name);
    // The attempt folder's descriptor, opened (without following a link) on first use; -1 when refused.
    int attemptFolder(int attempt, const std::string& name);

    int runDirFd_;
    std::string runDir_;
    RankSet events_, logs_, liveSteps_;
    std::map<std::string, long long> offsets_;
    std::vector<Tail> tails_; // in ingest order; rebuilt by rescan (pointers change only then)
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<bool> due_;
    std::map<int, int> attemptFds_; // attempt -> its folder, opened once
    std::map<std::string, std::string> refused_; // name -> why, reported once
    std::vector<std::pair<std::string, std::string>> newRefusals_;
    int inotifyFd_ = -1;
    std::unordered_map<int, std::string> watchDirs_; // wd -> "" (the run directory) or "attempt-N/"
    bool stateTouched_ = true;
    bool needRescan_ = false;
};

} // namespace sb::supervise
