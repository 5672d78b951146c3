#pragma once
// The one definition of the core's event protocol (docs/protocol.md): the
// version, the event types and one typed struct per event with toJson() and
// fromJson(). The engine writes through these; the supervisor, the launcher's
// reader and the detached-run ingest read through them. Torch-free, Qt-free.

#include "json/json.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace sb::protocol {

// Major: a reader refuses lines whose major is newer than its own. A new
// optional field does not change it; renaming or removing one does.
inline constexpr int kVersion = 1;
inline constexpr const char* kLinePrefix = "@sb ";

namespace type {
inline constexpr const char* hello = "hello";
inline constexpr const char* plan = "plan";
inline constexpr const char* step = "step";
inline constexpr const char* checkpoint = "checkpoint";
inline constexpr const char* error = "error";
inline constexpr const char* done = "done";
inline constexpr const char* system = "system";
} // namespace type

// The fields every line carries.
struct Envelope {
    std::string type;
    int v = kVersion;
    int rank = 0;
    double t = 0;
    std::string runId;
};

// ok when version `v` is readable; otherwise the message to show, naming `source`.
Status versionProblem(long long v, const std::string& source);

// A reader gets -1 for a pid or local rank the line does not carry (or
// carries as a negative or non-number), 0 for the other absent counts.
struct Hello {
    static constexpr const char* kType = type::hello;
    std::string host;
    long long pid = -1;
    std::string device, torch, coreVersion;
    int world = 0, localRank = -1, localWorld = 0, threads = 0;
    std::string master, env;
    json::Value toJson() const;
    static Hello fromJson(const json::Value& o);
};

struct PlanUnit {
    std::string module;
    long long params = 0;
    std::optional<long long> shardNumel;
    std::optional<bool> offloaded; // true: its sharded state is in host memory (CPU offload)
};

struct PlanEvent {
    static constexpr const char* kType = type::plan;
    long long paramsTotal = 0;
    std::vector<PlanUnit> units;
    int world = 0, shardSize = 0, replicate = 0;
    bool sharded = false;
    // How the shard group's all-gathers and reduce-scatters travel: "shm"
    // (shared memory on one host), "gloo" or "nccl"; absent when nothing is exchanged.
    std::optional<std::string> collectives;
    json::Value toJson() const;
    static PlanEvent fromJson(const json::Value& o);
};

// One training step. Its numeric fields are listed once in stepMetrics()
// (step_metrics.hpp), which the writer, the store and the CSV iterate.
struct Step {
    static constexpr const char* kType = type::step;
    std::int64_t step = 0, steps = 0;
    double loss = 0, lr = 0, gradNorm = 0;
    std::int64_t tokens = 0;
    double tokensPerS = 0, stepMs = 0, forwardMs = 0, backwardMs = 0, optimizerMs = 0, commExposedMs = 0;
    std::int64_t memCurrent = 0, memPeak = 0, memReserved = 0, deviceMemUsed = 0;
    // The validation loss and its perplexity, on the steps that took it (NaN:
    // not taken; such a real is left out of the line).
    double evalLoss = std::numeric_limits<double>::quiet_NaN(), evalPerplexity = std::numeric_limits<double>::quiet_NaN();
    json::Value toJson() const;
    static Step fromJson(const json::Value& o);
};

struct CheckpointEvent {
    static constexpr const char* kType = type::checkpoint;
    long long step = 0;
    std::string path, kind, status;
    std::optional<long long> bytes;
    std::optional<double> ms, stallMs;
    std::optional<bool> async;
    std::optional<int> world;
    std::optional<std::string> checksum, message;
    json::Value toJson() const;
    static CheckpointEvent fromJson(const json::Value& o);
};

struct Error {
    static constexpr const char* kType = type::error;
    std::string message, where;
    json::Value toJson() const;
    static Error fromJson(const json::Value& o);
};

struct Done {
    static constexpr const char* kType = type::done;
    std::string status;
    std::optional<long long> steps;
    std::optional<double> finalLoss;
    std::optional<long long> peakBytes;
    json::Value toJson() const;
    static Done fromJson(const json::Value& o);
};

// The one table of a `system` event's values, as step_metrics.hpp is of a
// step's: X(name, member, kind), the name its JSON key and the store's column,
// kind `real` or `whole` (a byte count). System's JSON, the store's
// SystemSample (whose members carry the same names) and the record made from
// an event all expand it: a value added here reaches each, and a mirror that
// lacks its member does not compile.
#define SB_SYSTEM_FIELDS(X) \
    X("cpu_util", cpuUtil, real) \
    X("host_rss", hostRss, whole) \
    X("gpu_util", gpuUtil, real) \
    X("gpu_power_w", gpuPowerW, real) \
    X("gpu_temp_c", gpuTempC, real) \
    X("gpu_sm_clock_mhz", gpuSmClockMhz, real)

// What a rank's process costs the machine, sampled every few seconds beside
// the steps: CPU time (percent of one core since the previous sample, or since
// the process started for the first) and resident set on the host; on CUDA the
// GPU's own counters from NVML. Every field is optional: absent when unknown.
struct System {
    static constexpr const char* kType = type::system;
    std::optional<double> cpuUtil;          // % of one core
    std::optional<long long> hostRss;       // bytes
    std::optional<double> gpuUtil;          // %
    std::optional<double> gpuPowerW;        // watts
    std::optional<double> gpuTempC;         // degrees Celsius
    std::optional<double> gpuSmClockMhz;    // MHz
    json::Value toJson() const;
    static System fromJson(const json::Value& o);
};

// A rank's human log on stderr, one line each: "[rank R] MESSAGE", an error
// "[rank R] error: MESSAGE" (docs/protocol.md, "Output").
std::string rankLogLine(int rank, std::string_view message);
std::string rankErrorLogLine(int rank, std::string_view message);
// Whether a stderr line is the core's own account of a rank going well
// ("[rank 3] step 10/251  loss ...", "[rank 3] started on ..."): not a clue to
// why the rank ended, so never its failure's detail. Its errors and anything
// else the process printed are.
bool isRankProgressLine(std::string_view line);

// The whole line: "@sb " + envelope + the event's fields, one JSON object.
std::string formatLine(const Envelope& e, const json::Value& fields);

// A parsed line. `ok` is false for a line that is not an event (malformed
// JSON, not an object, no type: `malformed` says which); `problem` is set
// when the line is an event this reader must refuse (a newer major version).
struct EventLine {
    bool ok = false;
    Envelope envelope;
    json::Value body; // the whole object; fromJson() of the typed struct reads it
    std::string problem;
    std::string malformed;
};
// `text` with or without the "@sb " prefix; `source` names where it came from
// for the version message (a file, "rank 3").
EventLine parseEventLine(std::string_view text, const std::string& source = {});

} // namespace sb::protocol
