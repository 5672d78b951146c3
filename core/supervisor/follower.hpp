// `shardbench-supervise follow RUN_DIR`: what a client reads to catch up with
// a run and follow it live, over one SSH channel (or a local pipe). The
// client first writes the byte offsets it already has ("FILE OFFSET" lines,
// then an empty line); the follower then prints one record a line:
//
//   {"k":"state","alive":true,"age":1.2,"state":{...}}      at start and on every change
//   {"k":"l","f":"attempt-0/rank-1.events","o":123,"n":456,"d":"<the line>"}
//   {"k":"beat","t":1700000000.5,"alive":true,"age":1.2}     every `beatMs` when nothing else was sent
//   {"k":"refused","f":"attempt-0/rank-1.events","why":"a symbolic link"}   once per file not read
//   {"k":"error","message":"..."}                             the run directory cannot be followed (exit 1)
//   {"k":"end","alive":false}                                 all read and the supervisor gone (or --once)
//
// The state is state.json parsed and written again on one line (never its
// bytes: a pretty-printed file would break the stream, and a line of it could
// pose as a record); a state.json of a newer version than protocol::kStateVersion is an
// error. "age" (seconds since the supervisor last wrote its state, by this
// machine's clock) comes with supervisors that refresh their state
// ("refresh_s"): a stopped (SIGSTOP) supervisor still holds its lock.
//
// Only regular files inside the run directory are read, never through a
// symbolic link and never blocking (follow_files.hpp); anything else is
// "refused", and a supervisor.lock that is not a regular file is an error
// (whether the supervisor lives cannot be told).
//
// "o" is the line's offset in its file (its key: a line re-sent after a
// reconnect has the same one), "n" the offset after it. When stdin reaches
// end-of-file after the offsets, the client is gone and the follower exits.
//
// Wire 2 (`--wire 2`) sends a line as text, not re-escaped into JSON:
//   L FILE O N <the line>      in order: every line of FILE before N was sent
//   E FILE O N <the line>      out of order (live, below)
// and the JSON records above for everything else.
//
// Catch-up and live: every selected file is sent in full from the client's
// offsets at start and once more after the supervisor is gone (and with
// --once). In between, files of the ranks in `liveSteps` (and the logs and
// supervisor.log) are sent as lines come; the other ranks' events files only
// send their non-step lines (hello, plan, checkpoint, error, done), as "E"
// records (wire 1: "live":true), which do not advance the client's offset:
// their step lines come in the catch-up at the end, which re-sends the
// essential lines too (the client stores a line once by its key).
#pragma once

#include "follow_files.hpp"

#include <map>
#include <string>

namespace sb::supervise {

struct FollowOptions {
    std::string runDir;
    RankSet events;                        // whose events files (all)
    RankSet logs = RankSet::only(0);       // whose logs
    RankSet liveSteps;                     // whose step lines are sent live (all)
    int wire = 1;
    bool once = false;          // catch up, then end
    int pollMs = 200;
    int beatMs = 2000;
    int rescanMs = -1;          // full listing of the run directory: -1 = 10 s with inotify, 1 s without
    std::map<std::string, long long> offsets;
    bool watchStdin = false;    // end when stdin closes
};

// The command line: --logs, --events, --live-steps (rank sets), --wire (1 or 2).
bool isFollowOption(const std::string& name);
// Refused with what is wrong with the value.
Status setFollowOption(FollowOptions* options, const std::string& name, const std::string& value);

// Reads "FILE OFFSET" lines up to an empty line (true) or end-of-file (false).
bool readOffsets(int fd, std::map<std::string, long long>* offsets);

// Runs until the end; returns the exit code (0, or 1 when the run directory cannot be read).
int follow(const FollowOptions& options);

} // namespace sb::supervise
