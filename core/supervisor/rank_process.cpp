#include "rank_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <random>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char** environ;

namespace sb::supervise {

namespace {

std::vector<std::string> mergedEnvironment(const EnvList& extra)
{
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const std::string name = kv.substr(0, kv.find('='));
        bool replaced = false;
        for (const auto& [k, v] : extra) replaced = replaced || k == name;
        if (!replaced) out.push_back(kv);
    }
    for (const auto& [k, v] : extra) out.push_back(k + "=" + v);
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (std::string& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

Result<Spawned> spawnRank(const SpawnRequest& request)
{
    Spawned s;
    int out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1}, in[2] = {-1, -1}; // -1: not opened, nothing to close
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 || ::pipe2(report, O_CLOEXEC) != 0 ||
        (request.stdinPipe && ::pipe2(in, O_CLOEXEC) != 0)) {
        const Status failed = Status::error(std::string("cannot create pipes: ") + std::strerror(errno));
        for (int fd : {out[0], out[1], err[0], err[1], report[0], report[1], in[0], in[1]})
            if (fd >= 0) ::close(fd);
        return failed;
    }
    // Everything the child needs is prepared before fork.
    std::vector<std::string> argv = request.argv;
    std::vector<std::string> envp = mergedEnvironment(request.env);
    std::vector<char*> argvp = pointers(argv), envpp = pointers(envp);
    const pid_t parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid < 0) {
        const Status failed = Status::error(std::string("fork failed: ") + std::strerror(errno));
        for (int fd : {out[0], out[1], err[0], err[1], report[0], report[1], in[0], in[1]})
            if (fd >= 0) ::close(fd);
        return failed;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
#ifdef __linux__
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127); // the supervisor died before prctl
#endif
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::dup2(request.stdinPipe ? in[0] : ::open("/dev/null", O_RDONLY), 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        int code = 0;
        if (!request.workdir.empty() && ::chdir(request.workdir.c_str()) != 0) code = errno;
        if (code == 0) {
            ::execvpe(argvp[0], argvp.data(), envpp.data());
            code = errno;
        }
        const ssize_t ignored = ::write(report[1], &code, sizeof code);
        (void)ignored;
        ::_exit(127);
    }
    ::setpgid(pid, pid); // also from here, so a signal right after fork reaches the group
    ::close(out[1]);
    ::close(err[1]);
    ::close(report[1]);
    if (in[0] >= 0) ::close(in[0]);
    int code = 0;
    ssize_t n;
    do n = ::read(report[0], &code, sizeof code);
    while (n < 0 && errno == EINTR);
    ::close(report[0]);
    if (n == static_cast<ssize_t>(sizeof code)) {
        ::waitpid(pid, nullptr, 0);
        ::close(out[0]);
        ::close(err[0]);
        if (in[1] >= 0) ::close(in[1]);
        return Status::error((request.workdir.empty() || code != ENOENT ? "cannot run " + request.argv[0]
                                                                        : "cannot run " + request.argv[0] + " in " + request.workdir) +
                             ": " + std::strerror(code));
    }
    s.pid = pid;
    s.outFd = out[0];
    s.errFd = err[0];
    s.inFd = in[1];
    ::fcntl(s.outFd, F_SETFL, O_NONBLOCK);
    ::fcntl(s.errFd, F_SETFL, O_NONBLOCK);
    return s;
}

bool isPortFree(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return free;
}

int pickRendezvousPort(int preferred)
{
    // Below the ephemeral range, free to bind now (as the local launcher does).
    if (preferred >= 20000 && preferred < 32000 && isPortFree(preferred)) return preferred;
    std::mt19937 rng(std::random_device{}());
    for (int i = 0; i < 200; ++i) {
        const int port = 20000 + static_cast<int>(rng() % 12000);
        if (isPortFree(port)) return port;
    }
    return 0;
}

void signalGroup(pid_t pid, int sig)
{
    if (pid <= 0) return;
    if (::kill(-pid, sig) != 0) ::kill(pid, sig);
}

std::string signalName(int sig)
{
    static const std::pair<int, const char*> names[] = {
        {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"},
        {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGPIPE, "SIGPIPE"},
        {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}};
    for (const auto& [n, name] : names)
        if (n == sig) return name;
    return "signal " + std::to_string(sig);
}

std::string describeWaitStatus(int status)
{
    if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + signalName(WTERMSIG(status)) + ")";
    return "ended with status " + std::to_string(status);
}

} // namespace sb::supervise
