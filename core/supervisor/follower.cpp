#include "follower.hpp"

#include "protocol/events.hpp"

#include "run_dir.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb::supervise {

namespace {

constexpr std::size_t kChunk = 1 << 20;
constexpr std::size_t kMaxLineRead = 16u << 20;

struct Output {
    std::string buf;
    int wire = 1;
    bool broken = false;
    void flush()
    {
        std::string_view d = buf;
        while (!d.empty() && !broken) {
            const ssize_t n = ::write(1, d.data(), d.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) broken = true; // the client is gone
            else d.remove_prefix(static_cast<std::size_t>(n));
        }
        buf.clear();
    }
};

bool isAscii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// `live`: a line sent out of order, ahead of the catch-up that sends it again in order.
void sendLine(Output& out, const std::string& file, long long offset, long long next, std::string_view line, bool live)
{
    if (out.wire >= 2) {
        out.buf += live ? "E " : "L ";
        out.buf += file;
        out.buf += ' ';
        out.buf += std::to_string(offset);
        out.buf += ' ';
        out.buf += std::to_string(next);
        out.buf += ' ';
        if (isAscii(line)) out.buf.append(line.data(), line.size());
        else out.buf += sanitizeUtf8(line);
        out.buf += '\n';
        return;
    }
    out.buf += "{\"k\":\"l\",\"f\":";
    json::appendQuoted(out.buf, file);
    out.buf += ",\"o\":" + std::to_string(offset) + ",\"n\":" + std::to_string(next);
    if (live) out.buf += ",\"live\":true";
    out.buf += ",\"d\":";
    json::appendQuoted(out.buf, sanitizeUtf8(line));
    out.buf += "}\n";
}

// protocol::formatLine() writes "type" first: a step line is the only kind
// left for the catch-up.
bool isStepLine(std::string_view line)
{
    static const std::string kStep = std::string("{\"type\":\"") + protocol::type::step + "\"";
    return line.size() > kStep.size() && line.compare(0, kStep.size(), kStep) == 0 &&
           (line[kStep.size()] == ',' || line[kStep.size()] == '}');
}

enum class Pass { CatchUp, Live };

// Sends the complete lines of `t` after its position; returns true if any.
// A line longer than a read grows the read (the supervisor's lines are at
// most a few MiB); one past kMaxLineRead is sent cut there. In a live pass a
// file that is not live sends only its essential lines, from `scan`. Reads
// only what the file has (a tick's worth is a few KiB) into `buf`, reused.
bool sendNewLines(const std::string& runDir, Tail& t, Pass pass, Output& out, std::vector<char>& buf)
{
    const bool partial = pass == Pass::Live && !t.live;
    long long pos = partial ? t.scan : t.done;
    const std::string path = join(runDir, t.name);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    t.size = st.st_size;
    if (st.st_size <= pos) return false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    bool sent = false;
    auto chunk = [&] { return static_cast<std::size_t>(std::min<long long>(kChunk, st.st_size - pos)); };
    std::size_t want = chunk();
    while (pos < st.st_size && !out.broken) {
        if (buf.size() < want) buf.resize(want);
        const ssize_t n = ::pread(fd, buf.data(), want, pos);
        if (n <= 0) break;
        const std::string_view data(buf.data(), static_cast<std::size_t>(n));
        std::size_t start = 0;
        for (std::size_t nl; (nl = data.find('\n', start)) != std::string_view::npos; start = nl + 1) {
            const std::string_view line = data.substr(start, nl - start);
            if (partial && (!t.events || isStepLine(line))) continue;
            sendLine(out, t.name, pos + static_cast<long long>(start), pos + static_cast<long long>(nl) + 1, line, partial);
            sent = true;
        }
        if (start == 0) {
            if (static_cast<std::size_t>(n) < want) break; // an unfinished last line: wait for the rest
            if (want < kMaxLineRead) {
                want = std::min(want * 2, kMaxLineRead);
                continue;
            }
            if (!partial || !isStepLine(data)) sendLine(out, t.name, pos, pos + n, data, partial);
            sent = true;
            start = static_cast<std::size_t>(n);
        }
        pos += static_cast<long long>(start);
        want = chunk();
        out.flush();
    }
    ::close(fd);
    if (partial) {
        t.scan = pos;
    } else {
        t.done = pos;
        t.scan = std::max(t.scan, pos);
    }
    return sent;
}

bool stdinClosed()
{
    pollfd p{0, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char buf[256];
    const ssize_t n = ::read(0, buf, sizeof buf);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

double monotonicSeconds()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// Queues a "state" record when state.json, or whether its supervisor lives,
// differs from `lastState`; a file that is not a JSON object is passed over.
bool queueState(const std::string& runDir, bool alive, std::string& lastState, Output& out)
{
    const Result<std::string> state = readStateText(runDir);
    if (!state) return false;
    const json::ParseResult parsed = json::parse(state.value());
    if (!parsed || !parsed.value->isObject()) return false;
    const std::string key = state.value() + (alive ? "1" : "0");
    if (key == lastState) return false;
    lastState = key;
    out.buf += std::string("{\"k\":\"state\",\"alive\":") + (alive ? "true" : "false") + ",\"state\":" + state.value() + "}\n";
    return true;
}

} // namespace

bool isFollowOption(const std::string& name)
{
    return name == "--logs" || name == "--events" || name == "--live-steps" || name == "--wire";
}

Status setFollowOption(FollowOptions* o, const std::string& name, const std::string& value)
{
    if (name == "--wire") {
        if (value != "1" && value != "2") return Status::error("--wire takes 1 or 2");
        o->wire = value[0] - '0';
        return {};
    }
    Result<RankSet> parsed = RankSet::parse(value);
    if (!parsed) return parsed.status().prefixed(name);
    (name == "--logs" ? o->logs : name == "--events" ? o->events : o->liveSteps) = std::move(parsed).value();
    return {};
}

bool readOffsets(int fd, std::map<std::string, long long>* offsets)
{
    // Byte by byte: what follows the empty line is not ours to consume.
    std::string line;
    char c;
    for (;;) {
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        if (c != '\n') {
            if (line.size() < 4096) line += c;
            continue;
        }
        if (line.empty()) return true;
        const std::size_t sp = line.rfind(' ');
        if (sp != std::string::npos) {
            char* end = nullptr;
            const long long off = std::strtoll(line.c_str() + sp + 1, &end, 10);
            if (end && *end == '\0' && off >= 0) (*offsets)[line.substr(0, sp)] = off;
        }
        line.clear();
    }
}

int follow(const FollowOptions& o)
{
    Output out;
    out.wire = o.wire;
    std::string lastState;
    double lastSent = 0;
    const std::string lockPath = join(o.runDir, kLockFile);
    struct stat st {};
    if (::stat(o.runDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        out.buf = "{\"k\":\"error\",\"message\":";
        json::appendQuoted(out.buf, "no run directory " + o.runDir);
        out.buf += "}\n";
        out.flush();
        return 1;
    }
    FileSet files(o.runDir, o.events, o.logs, o.liveSteps, o.offsets);
    std::vector<char> buf;
    double lastRescan = monotonicSeconds();
    bool wasAlive = false;
    for (bool first = true, last = false;; first = false) {
        const bool alive = isLockHeld(lockPath);
        if ((files.stateTouched() || alive != wasAlive || first) && queueState(o.runDir, alive, lastState, out))
            lastSent = unixNow();
        wasAlive = alive;
        const bool catchUp = first || last;
        const int rescanMs = o.rescanMs >= 0 ? o.rescanMs : files.watching() ? 10000 : 1000;
        if (catchUp || monotonicSeconds() - lastRescan >= rescanMs / 1000.0) {
            files.rescan();
            lastRescan = monotonicSeconds();
        }
        for (Tail* t : catchUp ? files.all() : files.takeDue(true))
            if (sendNewLines(o.runDir, *t, catchUp ? Pass::CatchUp : Pass::Live, out, buf)) lastSent = unixNow();
        if (last) {
            out.buf += std::string("{\"k\":\"end\",\"alive\":") + (alive ? "true" : "false") + "}\n";
            out.flush();
            return 0;
        }
        // One more pass after the supervisor is gone picks up its last lines.
        if (!alive || o.once) last = true;
        if (unixNow() - lastSent >= o.beatMs / 1000.0) {
            out.buf += "{\"k\":\"beat\",\"t\":" + json::formatNumber(unixNow()) + ",\"alive\":" + (alive ? "true" : "false") + "}\n";
            lastSent = unixNow();
        }
        out.flush();
        if (out.broken) return 0;
        if (!last) {
            if (o.watchStdin) {
                pollfd p{0, POLLIN, 0};
                if (::poll(&p, 1, o.pollMs) > 0 && stdinClosed()) return 0;
            } else {
                ::usleep(static_cast<useconds_t>(o.pollMs) * 1000);
            }
        }
    }
}

} // namespace sb::supervise
