// `shardbench-supervise follow RUN_DIR`: what a client reads to catch up with
// a run and follow it live, over one SSH channel (or a local pipe). The
// client first writes the byte offsets it already has ("FILE OFFSET" lines,
// then an empty line); the follower then prints, one JSON object a line:
//
//   {"k":"state","alive":true,"state":{...state.json...}}   at start and on every change
//   {"k":"l","f":"attempt-0/rank-1.events","o":123,"n":456,"d":"<the line>"}
//   {"k":"beat","t":1700000000.5,"alive":true}               every `beatMs` when nothing else was sent
//   {"k":"end","alive":false}                                 all read and the supervisor gone (or --once)
//
// "o" is the line's offset in its file (its key: a line re-sent after a
// reconnect has the same one), "n" the offset after it. When stdin reaches
// end-of-file after the offsets, the client is gone and the follower exits.
#pragma once

#include <map>
#include <string>

namespace sb::supervise {

struct FollowOptions {
    std::string runDir;
    enum class Logs { None, Rank0, All } logs = Logs::Rank0;
    bool once = false;          // catch up, then end
    int pollMs = 200;
    int beatMs = 2000;
    std::map<std::string, long long> offsets;
    bool watchStdin = false;    // end when stdin closes
};

// Reads "FILE OFFSET" lines up to an empty line (true) or end-of-file (false).
bool readOffsets(int fd, std::map<std::string, long long>* offsets);

// Runs until the end; returns the exit code (0, or 1 when the run directory cannot be read).
int follow(const FollowOptions& options);

} // namespace sb::supervise
