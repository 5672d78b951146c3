#pragma once
// The follow stream (`shardbench-supervise follow RUN_DIR`, docs/protocol.md,
// "Following a run"): one record a line, as the follower writes them and
// every client reads them. The one definition of the wire format; the
// records' meaning is described in core/supervisor/follower.hpp.
//
//   {"k":"state","alive":true,"age":1.2,"state":{...}}
//   {"k":"l","f":FILE,"o":O,"n":N,"d":LINE}            ("live":true: out of order)
//   {"k":"beat","t":T,"alive":true,"age":1.2}
//   {"k":"refused","f":FILE,"why":WHY}
//   {"k":"error","message":MESSAGE}
//   {"k":"end","alive":false}
//   L FILE O N LINE / E FILE O N LINE                    wire 2: a line as text (E: out of order)
//
// Torch-free, Qt-free.

#include "json/json.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace sb::protocol {

// The wire versions a follower speaks (`--wire`).
inline constexpr int kFollowWireMin = 1;
inline constexpr int kFollowWireMax = 2;

// Writers: each appends one record and its newline to `out`. Text is made
// valid UTF-8 first; `age` < 0 is left out.
void appendLineRecord(std::string& out, int wire, std::string_view file, long long offset, long long next,
                      std::string_view line, bool live);
void appendStateRecord(std::string& out, bool alive, double age, std::string_view compactState);
void appendBeatRecord(std::string& out, double t, bool alive, double age);
void appendRefusedRecord(std::string& out, std::string_view file, std::string_view why);
void appendErrorRecord(std::string& out, std::string_view message);
void appendEndRecord(std::string& out, bool alive);

struct FollowRecord {
    enum class Kind { Line, State, Beat, Refused, Error, End };
    Kind kind = Kind::Line;
    std::optional<bool> alive;
    double age = -1; // seconds the supervisor has been silent; -1: not said
    double t = 0;    // a beat's time
    // A line: its file (relative to the run directory), offset, the offset
    // after it, its text, and whether it came out of order.
    std::string file;
    long long offset = -1, next = -1;
    std::string data;
    bool live = false;
    std::string text;  // why a file was refused, or the follower's error
    json::Value state; // the state (run_state.hpp's readRunState reads it)
};

// One record without its newline; nullopt for anything that is not a
// well-formed record (a line with its offsets out of order, an unknown kind).
std::optional<FollowRecord> parseFollowRecord(std::string_view record);

// A wire-2 line record ("L FILE O N LINE", "E ..."), read without copying:
// the views point into the record. nullopt when it is not one.
struct TextLineRecord {
    std::string_view file, data;
    long long offset = 0, next = 0;
    bool live = false;
};
std::optional<TextLineRecord> parseTextLineRecord(std::string_view record);

} // namespace sb::protocol
