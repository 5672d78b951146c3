#include "supervisor_process.hpp"

#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace sb::supervise {

namespace {

// A small /proc file, whole (they are generated: stat is one line, cmdline a few KB).
std::string readProcFile(int pid, const char* name)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return {};
    std::string text;
    char buf[4096];
    for (ssize_t n; text.size() < (1u << 20) && (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return text;
}

std::string withoutTrailingSlashes(std::string p)
{
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
}

} // namespace

long long processStartTime(int pid)
{
    if (pid <= 0) return -1;
    const std::string stat = readProcFile(pid, "stat");
    // "PID (COMM) S ..." where COMM may hold spaces and parentheses: fields count from the last ')'.
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size()) return -1;
    const char state = stat[close + 2];
    if (state == 'Z' || state == 'X') return -1;
    std::size_t at = close + 2; // field 3
    for (int field = 3; field < 22; ++field) {
        at = stat.find(' ', at);
        if (at == std::string::npos) return -1;
        ++at;
    }
    char* end = nullptr;
    const long long t = std::strtoll(stat.c_str() + at, &end, 10);
    return end && end != stat.c_str() + at && t >= 0 ? t : -1;
}

bool isSupervisorOf(int pid, const std::string& runDir, long long startTime)
{
    const long long started = processStartTime(pid);
    if (started < 0 || (startTime >= 0 && started != startTime)) return false;
    const std::string cmdline = readProcFile(pid, "cmdline");
    std::vector<std::string> args;
    for (std::size_t at = 0; at < cmdline.size();) {
        const std::size_t nul = cmdline.find('\0', at);
        const std::size_t end = nul == std::string::npos ? cmdline.size() : nul;
        args.push_back(cmdline.substr(at, end - at));
        at = end + 1;
    }
    if (args.size() < 3 || args[1] != "start") return false;
    const std::string& program = args[0];
    const std::size_t slash = program.rfind('/');
    if (program.compare(slash == std::string::npos ? 0 : slash + 1, std::string::npos, "shardbench-supervise") != 0) return false;
    // The start time is read again: the process may have exited (and its pid been taken) while its cmdline was read.
    return withoutTrailingSlashes(args[2]) == withoutTrailingSlashes(runDir) && processStartTime(pid) == started;
}

std::vector<int> supervisorsOf(const std::string& runDir)
{
    std::vector<int> found;
    DIR* proc = ::opendir("/proc");
    if (!proc) return found;
    while (const dirent* e = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || !end || *end != '\0' || pid == ::getpid()) continue;
        if (isSupervisorOf(static_cast<int>(pid), runDir, -1)) found.push_back(static_cast<int>(pid));
    }
    ::closedir(proc);
    return found;
}

} // namespace sb::supervise
