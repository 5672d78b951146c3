#include "follower.hpp"

#include "protocol/events.hpp"
#include "protocol/follow_records.hpp"

#include "run_dir.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
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

// `live`: a line sent out of order, ahead of the catch-up that sends it again in order.
void sendLine(Output& out, const std::string& file, long long offset, long long next, std::string_view line, bool live)
{
    protocol::appendLineRecord(out.buf, out.wire, file, offset, next, line, live);
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
// Only a regular file is read, reached from its folder's descriptor without
// following a link; anything else is refused (FileSet::refuse).
bool sendNewLines(FileSet& files, Tail& t, Pass pass, Output& out, std::vector<char>& buf)
{
    const bool partial = pass == Pass::Live && !t.live;
    long long pos = partial ? t.scan : t.done;
    const int dirFd = files.folderOf(t);
    if (dirFd < 0) return false;
    struct stat st {};
    if (::fstatat(dirFd, t.base.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return false; // not there (yet)
    if (!S_ISREG(st.st_mode)) {
        files.refuse(t, fileKindWords(st.st_mode));
        return false;
    }
    t.size = st.st_size;
    if (st.st_size <= pos) return false;
    std::string why;
    const int fd = openRegularAt(dirFd, t.base.c_str(), &why);
    if (fd < 0) {
        // Replaced since the look above; a descriptor shortage is no refusal, it is tried again.
        if (why.rfind("cannot", 0) == 0) files.refuseName(t.name, why);
        else if (!why.empty()) files.refuse(t, why);
        return false;
    }
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return false;
    }
    t.size = st.st_size;
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

// {"k":"refused","f":"attempt-0/rank-1.events","why":"a symbolic link"}: a
// file of the run directory that is not read, said once per follower.
bool queueRefusals(FileSet& files, Output& out)
{
    bool any = false;
    for (const auto& [name, why] : files.takeRefusals()) {
        protocol::appendRefusedRecord(out.buf, name, why);
        any = true;
    }
    return any;
}

void queueError(Output& out, const std::string& message)
{
    protocol::appendErrorRecord(out.buf, message);
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

// Whether the supervisor lives: its lock, a regular file of the run
// directory, is held. A lock that is not a regular file (a FIFO, a link)
// cannot tell: `refused` says what it is.
struct LockCheck {
    bool held = false;
    std::string refused;
};

LockCheck checkLock(int dirFd)
{
    std::string why;
    const int fd = openRegularAt(dirFd, protocol::kLockFile, &why);
    if (fd < 0) return {false, why}; // absent: no supervisor (yet)
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return {held, {}};
}

// state.json as last read: sent again only when it (or whether its
// supervisor lives) changes, not when its periodic refresh moved only
// "updated_at" and the steps (a state of 1024 ranks is 100 KiB).
struct StateSeen {
    std::string key;          // the state without "updated_at", and alive
    double updatedAt = 0;     // by the supervisor's clock, this machine's (or its node's)
    double refreshS = 0;      // the supervisor rewrites its state this often; 0: an older one, which does not
    std::string problem;      // the last refusal, said once
    // Seconds since the supervisor last wrote its state, by this machine's clock; < 0 unknown.
    double age() const { return refreshS > 0 && updatedAt > 0 ? std::max(0.0, unixNow() - updatedAt) : -1; }
};

Result<std::string> readAll(int fd, std::size_t maxBytes)
{
    std::string text;
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Status::error(std::string("cannot read: ") + std::strerror(errno));
        if (n == 0) return text;
        text.append(chunk, static_cast<std::size_t>(n));
        if (text.size() > maxBytes) return Status::error("larger than " + std::to_string(maxBytes >> 20) + " MiB");
    }
}

// Queues a "state" record when state.json, or whether its supervisor lives,
// changed. The state is parsed and written again on one line: nothing of
// the file's bytes (a pretty-printed state, a line of it shaped like a
// record) reaches the stream as they are. A file that is not a regular
// file, or not a JSON object, is refused (said once, no state sent); one of a
// newer version than this follower reads is an error.
Status queueState(int dirFd, const std::string& runDir, bool alive, StateSeen& seen, FileSet& files, Output& out, bool* sent)
{
    *sent = false;
    auto refuse = [&](const std::string& why) {
        if (why == seen.problem) return Status();
        seen.problem = why;
        files.refuseName(protocol::kStateFile, why);
        return Status();
    };
    std::string why;
    const int fd = openRegularAt(dirFd, protocol::kStateFile, &why);
    if (fd < 0) return why.empty() ? Status() : refuse(why); // none yet: the supervisor has not started
    const Result<std::string> text = readAll(fd, 64u << 20);
    ::close(fd);
    if (!text) return refuse(text.error());
    json::ParseResult parsed = json::parse(text.value());
    if (!parsed) return refuse("not valid JSON (" + parsed.error.toString() + ")");
    json::Value& state = *parsed.value;
    if (!state.isObject()) return refuse("not a JSON object");
    const json::Value* version = state.find("version");
    if (version && (!version->isInteger() || version->asInt() < 1)) return refuse("its \"version\" is not a whole number from 1");
    if (Status newer = protocol::checkStateVersion(state, join(runDir, protocol::kStateFile),
                                                   "run the follower of the supervisor that wrote it");
        !newer.ok())
        return newer;
    seen.problem.clear();
    const json::Value* updated = state.find("updated_at");
    const json::Value* refresh = state.find("refresh_s");
    seen.updatedAt = updated && updated->isNumber() ? updated->asDouble() : 0;
    seen.refreshS = refresh && refresh->isNumber() ? refresh->asDouble() : 0;
    const std::string compact = protocol::sanitizeUtf8(state.dump());
    // The periodic refresh moves these three alone: rank 0's step lines carry them live.
    json::Value keyed = state;
    for (const char* refreshed : {"updated_at", "steps_done", "final_loss"})
        if (keyed.contains(refreshed)) keyed.set(refreshed, nullptr);
    const std::string key = keyed.dump() + (alive ? "1" : "0");
    if (key == seen.key) return {};
    seen.key = key;
    protocol::appendStateRecord(out.buf, alive, seen.age() >= 0 ? std::round(seen.age() * 10) / 10 : -1, compact);
    *sent = true;
    return {};
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
    double lastSent = 0;
    // Every file is reached from this descriptor (the run directory's path itself may be a link: the user's choice).
    const int dirFd = ::open(o.runDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0) {
        queueError(out, "no run directory " + o.runDir);
        out.flush();
        return 1;
    }
    struct DirCloser {
        int fd;
        ~DirCloser() { ::close(fd); }
    } closer{dirFd};
    FileSet files(dirFd, o.runDir, o.events, o.logs, o.liveSteps, o.offsets);
    std::vector<char> buf;
    StateSeen seen;
    double lastRescan = monotonicSeconds();
    bool wasAlive = false;
    auto fail = [&](const std::string& message) {
        queueRefusals(files, out);
        queueError(out, message);
        out.flush();
        return 1;
    };
    for (bool first = true, last = false;; first = false) {
        const LockCheck lock = checkLock(dirFd);
        if (!lock.refused.empty())
            return fail(join(o.runDir, protocol::kLockFile) +
                        (lock.refused.rfind("cannot", 0) == 0 ? ": " + lock.refused : " is " + lock.refused + ", not a regular file") +
                        ": whether its supervisor lives cannot be told, so the run directory is refused");
        const bool alive = lock.held;
        if (files.stateTouched() || alive != wasAlive || first) {
            bool sent = false;
            if (const Status st = queueState(dirFd, o.runDir, alive, seen, files, out, &sent); !st.ok()) return fail(st.message());
            if (sent) lastSent = unixNow();
        }
        wasAlive = alive;
        const bool catchUp = first || last;
        const int rescanMs = o.rescanMs >= 0 ? o.rescanMs : files.watching() ? 10000 : 1000;
        if (catchUp || monotonicSeconds() - lastRescan >= rescanMs / 1000.0) {
            files.rescan();
            lastRescan = monotonicSeconds();
        }
        for (Tail* t : catchUp ? files.all() : files.takeDue(true))
            if (sendNewLines(files, *t, catchUp ? Pass::CatchUp : Pass::Live, out, buf)) lastSent = unixNow();
        if (queueRefusals(files, out)) lastSent = unixNow();
        if (last) {
            protocol::appendEndRecord(out.buf, alive);
            out.flush();
            return 0;
        }
        // One more pass after the supervisor is gone picks up its last lines.
        if (!alive || o.once) last = true;
        if (unixNow() - lastSent >= o.beatMs / 1000.0) {
            // How long the supervisor has been silent: a stopped one (SIGSTOP) still holds its lock.
            protocol::appendBeatRecord(out.buf, unixNow(), alive, alive && seen.age() >= 0 ? std::round(seen.age() * 10) / 10 : -1);
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
