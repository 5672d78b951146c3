#include "follower.hpp"

#include "run_dir.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
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

std::vector<std::pair<int, std::string>> listNumbered(const std::string& dir, const char* prefix, const char* suffix)
{
    std::vector<std::pair<int, std::string>> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        int n = 0;
        if (isNumberedName(e->d_name, prefix, suffix, &n)) out.emplace_back(n, e->d_name);
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// The files a client wants, in the order it should ingest them.
std::vector<std::string> listFiles(const FollowOptions& o)
{
    std::vector<std::string> files = {kSupervisorLog};
    for (const auto& [attempt, adir] : listNumbered(o.runDir, "attempt-", "")) {
        const std::string base = adir + "/";
        for (const auto& [rank, name] : listNumbered(join(o.runDir, adir), "rank-", ".events")) files.push_back(base + name);
        if (o.logs == FollowOptions::Logs::None) continue;
        for (const auto& [rank, name] : listNumbered(join(o.runDir, adir), "rank-", ".log"))
            if (o.logs == FollowOptions::Logs::All || rank == 0) files.push_back(base + name);
    }
    return files;
}

void sendLine(Output& out, const std::string& file, long long offset, long long next, std::string_view line)
{
    out.buf += "{\"k\":\"l\",\"f\":";
    json::appendQuoted(out.buf, file);
    out.buf += ",\"o\":" + std::to_string(offset) + ",\"n\":" + std::to_string(next) + ",\"d\":";
    json::appendQuoted(out.buf, sanitizeUtf8(line));
    out.buf += "}\n";
}

// Sends the complete lines of `file` after `offset`; returns true if any.
// A line longer than a read grows the read (the supervisor's lines are at
// most a few MiB); one past kMaxLineRead is sent cut there.
bool sendNewLines(const std::string& runDir, const std::string& file, long long& offset, Output& out)
{
    const std::string path = join(runDir, file);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= offset) return false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    bool sent = false;
    std::string buf;
    long long pos = offset;
    std::size_t want = kChunk;
    while (pos < st.st_size && !out.broken) {
        buf.resize(want);
        const ssize_t n = ::pread(fd, buf.data(), want, pos);
        if (n <= 0) break;
        buf.resize(static_cast<std::size_t>(n));
        std::size_t start = 0;
        for (std::size_t nl; (nl = buf.find('\n', start)) != std::string::npos; start = nl + 1) {
            sendLine(out, file, pos + static_cast<long long>(start), pos + static_cast<long long>(nl) + 1,
                     std::string_view(buf).substr(start, nl - start));
            sent = true;
        }
        if (start == 0) {
            if (static_cast<std::size_t>(n) < want) break; // an unfinished last line: wait for the rest
            if (want < kMaxLineRead) {
                want *= 2;
                continue;
            }
            sendLine(out, file, pos, pos + n, buf);
            sent = true;
            start = static_cast<std::size_t>(n);
        }
        want = kChunk;
        pos += static_cast<long long>(start);
        out.flush();
    }
    ::close(fd);
    offset = pos;
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

} // namespace

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
    std::map<std::string, long long> offsets = o.offsets;
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
    for (bool last = false;;) {
        const bool alive = isLockHeld(lockPath);
        std::string state, error;
        if (readSmallFile(join(o.runDir, kStateFile), &state, &error)) {
            while (!state.empty() && (state.back() == '\n' || state.back() == ' ')) state.pop_back();
            json::ParseResult parsed = json::parse(state);
            if (parsed && parsed.value->isObject()) {
                const std::string key = state + (alive ? "1" : "0");
                if (key != lastState) {
                    lastState = key;
                    out.buf += std::string("{\"k\":\"state\",\"alive\":") + (alive ? "true" : "false") + ",\"state\":" + state + "}\n";
                    lastSent = unixNow();
                }
            }
        }
        for (const std::string& f : listFiles(o))
            if (sendNewLines(o.runDir, f, offsets[f], out)) lastSent = unixNow();
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
