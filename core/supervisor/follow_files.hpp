// The files of a run directory a follower tails, and how it learns which of
// them changed without listing and stat-ing every rank file on every tick:
// inotify on Linux (one watch per directory), a periodic full rescan as the
// fallback and as the safety net for writers on other machines (NFS).
#pragma once

#include "util/status.hpp"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
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
    int attempt = -1, rank = -1; // -1: supervisor.log
    bool events = false;
    bool live = false;       // every line is sent as it comes (else: essential lines only while following)
    long long done = 0;      // every line before it was sent
    long long scan = 0;      // live: lines before it were looked at (>= done)
    long long size = -1;     // when last looked at
};

class FileSet {
public:
    FileSet(std::string runDir, RankSet events, RankSet logs, RankSet liveSteps, std::map<std::string, long long> offsets);
    ~FileSet();
    FileSet(const FileSet&) = delete;
    FileSet& operator=(const FileSet&) = delete;

    // Lists the attempt folders and their rank files; new files join (at the
    // client's offset) and every file is due. Also (re)arms the watches.
    void rescan();
    // The files due since the last call, in ingest order: those inotify (or
    // a rescan) reported, plus `alsoLive` ones (their changes may come from
    // another machine). Clears the due marks.
    std::vector<Tail*> takeDue(bool alsoLive);
    std::vector<Tail*> all();
    bool watching() const { return inotifyFd_ >= 0; }
    // inotify said state.json or the folder list changed since the last call.
    bool stateTouched();

private:
    void addWatch(const std::string& dir);
    void readEvents();
    Tail* find(const std::string& name);

    std::string runDir_;
    RankSet events_, logs_, liveSteps_;
    std::map<std::string, long long> offsets_;
    std::vector<Tail> tails_; // in ingest order; rebuilt by rescan (pointers change only then)
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<bool> due_;
    int inotifyFd_ = -1;
    std::unordered_map<int, std::string> watchDirs_; // wd -> "" (the run directory) or "attempt-N/"
    bool stateTouched_ = true;
    bool needRescan_ = false;
};

} // namespace sb::supervise
