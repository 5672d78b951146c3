// shardbench-supervise: the cluster side of a detached run (docs/launcher.md).
//   start RUN_DIR [--foreground]   supervise the run in RUN_DIR/spec.json, detached from the caller
//                                  (--foreground: in this process, as a Slurm run's batch script does)
//   stop RUN_DIR [--kill]          stop it (SIGTERM to the supervisor; --kill skips the grace)
//   status RUN_DIR                 {"alive":..,"state":{..}}
//   signal RUN_DIR [--pid P [--start-time T]] [--term|--kill] [--wait SECONDS]
//                                  find (and stop) the supervisor by its process, not its directory
//                                  (a run directory removed under it): supervisor_process.hpp
//   follow RUN_DIR [--once] [--logs|--events|--live-steps SEL] [--wire 2]   stream the run's files (see follower.hpp)
// No Qt, no Torch: it builds wherever shardbench-core does.
#include "follower.hpp"
#include "run_dir.hpp"
#include "run_spec.hpp"
#include "slurm_steps.hpp"
#include "supervisor.hpp"
#include "supervisor_process.hpp"

#include "args.hpp"
#include "protocol/signal_reply.hpp"
#include "sb_version.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace sb::supervise;
using sb::Result;
using sb::Status;

namespace {

constexpr int kBadInput = 2;

const char* kUsage =
    "usage: shardbench-supervise start RUN_DIR [--foreground]\n"
    "       shardbench-supervise stop RUN_DIR [--kill] [--wait SECONDS]\n"
    "       shardbench-supervise status RUN_DIR\n"
    "       shardbench-supervise signal RUN_DIR [--pid P [--start-time T]] [--term|--kill] [--wait SECONDS]\n"
    "       shardbench-supervise follow RUN_DIR [--once] [--logs SEL] [--events SEL] [--live-steps SEL] [--wire 1|2]\n"
    "         (SEL: all, none, rank0 or ranks like 0,5,17)\n"
    "       shardbench-supervise --version | --help\n";

int usage(const std::string& message)
{
    std::cerr << "shardbench-supervise: " << message << "\n" << kUsage;
    return kBadInput;
}

std::string absolute(const std::string& path)
{
    if (!path.empty() && path[0] == '/') return path;
    char buf[4096];
    if (!::getcwd(buf, sizeof buf)) return path;
    return join(buf, path);
}

bool loadSpec(const std::string& dir, RunSpec* spec)
{
    const Result<std::string> text = readSmallFile(join(dir, sb::protocol::kSpecFile));
    if (!text) {
        std::cerr << "shardbench-supervise: " << text.error() << "\n";
        return false;
    }
    Result<RunSpec> parsed = parseRunSpec(text.value());
    if (!parsed) {
        std::cerr << "shardbench-supervise: " << join(dir, sb::protocol::kSpecFile) << ": " << parsed.error() << "\n";
        return false;
    }
    *spec = std::move(parsed).value();
    return true;
}

std::string readState(const std::string& dir)
{
    const Result<std::string> state = readStateText(dir);
    return state && sb::json::parse(state.value()) ? state.value() : std::string("null");
}

std::string stateField(const std::string& dir, const char* key)
{
    sb::json::ParseResult p = sb::json::parse(readState(dir));
    if (!p || !p.value->isObject()) return {};
    const sb::json::Value* v = p.value->find(key);
    if (!v) return {};
    if (v->isString()) return v->asString();
    return v->dump();
}

// Supervises in this process; `ready` (if >= 0) is told "OK" or the error.
int supervise(const std::string& dir, RunSpec spec, int ready)
{
    const Result<int> lock = tryLockFile(join(dir, sb::protocol::kLockFile));
    auto tell = [ready](const std::string& msg) {
        if (ready < 0) return;
        const ssize_t ignored = ::write(ready, msg.data(), msg.size());
        (void)ignored;
        ::close(ready);
    };
    if (!lock || lock.value() < 0) {
        tell("E " + (lock ? "a supervisor is already running in " + dir : lock.error()) + "\n");
        if (ready < 0) std::cerr << "shardbench-supervise: a supervisor is already running in " << dir << "\n";
        return 1;
    }
    installSupervisorSignals();
    // A Slurm run learns its nodes from the job it runs in.
    const Status resolved = spec.slurm ? resolveSlurmHosts(spec) : Status();
    Supervisor supervisor(spec, dir);
    tell("OK " + std::to_string(::getpid()) + "\n");
    return resolved.ok() ? supervisor.run() : supervisor.failToStart(resolved.message());
}

int cmdStart(const std::string& dir, bool foreground)
{
    RunSpec spec;
    if (!loadSpec(dir, &spec)) return kBadInput;
    const std::string status = stateField(dir, "status");
    if (isFinalState(status)) {
        std::cerr << "shardbench-supervise: the run in " << dir << " has already ended (" << status << ")\n";
        return 1;
    }
    if (foreground) return supervise(dir, spec, -1);

    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        std::cerr << "shardbench-supervise: pipe: " << std::strerror(errno) << "\n";
        return 1;
    }
    const pid_t first = ::fork();
    if (first < 0) {
        std::cerr << "shardbench-supervise: fork: " << std::strerror(errno) << "\n";
        return 1;
    }
    if (first == 0) {
        // Its own session, no controlling terminal, not a child of the caller:
        // the SSH connection or shell that started it may go away.
        ::close(pipeFds[0]);
        ::setsid();
        if (::fork() != 0) ::_exit(0);
        const int devnull = ::open("/dev/null", O_RDWR);
        const int log = ::open(join(dir, "supervisor.stderr").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        ::dup2(devnull, 0);
        ::dup2(log >= 0 ? log : devnull, 1);
        ::dup2(log >= 0 ? log : devnull, 2);
        if (::chdir("/") != 0) {}
        ::_exit(supervise(dir, spec, pipeFds[1]));
    }
    ::close(pipeFds[1]);
    ::waitpid(first, nullptr, 0);
    std::string reply;
    char buf[512];
    pollfd p{pipeFds[0], POLLIN, 0};
    while (::poll(&p, 1, 15000) > 0) {
        const ssize_t n = ::read(pipeFds[0], buf, sizeof buf);
        if (n <= 0) break;
        reply.append(buf, static_cast<std::size_t>(n));
    }
    ::close(pipeFds[0]);
    if (reply.rfind("OK ", 0) == 0) {
        std::cout << "started " << reply.substr(3);
        return 0;
    }
    std::cerr << "shardbench-supervise: "
              << (reply.size() > 2 ? reply.substr(2) : std::string("the supervisor did not start\n"));
    return 1;
}

int cmdStop(const std::string& dir, bool kill, int waitS)
{
    const std::string lock = join(dir, sb::protocol::kLockFile);
    if (!isLockHeld(lock)) {
        const std::string status = stateField(dir, "status");
        std::cout << "not running" << (status.empty() ? "" : " (" + status + ")") << "\n";
        return 0;
    }
    sb::json::ParseResult p = sb::json::parse(readState(dir));
    const sb::json::Value* sup = p && p.value->isObject() ? p.value->find("supervisor") : nullptr;
    const sb::json::Value* pid = sup ? sup->find("pid") : nullptr;
    if (!pid || !pid->isInteger() || pid->asInt() <= 1) {
        std::cerr << "shardbench-supervise: " << join(dir, sb::protocol::kStateFile) << " names no supervisor process\n";
        return 1;
    }
    if (::kill(static_cast<pid_t>(pid->asInt()), kill ? SIGUSR1 : SIGTERM) != 0) {
        std::cerr << "shardbench-supervise: cannot signal the supervisor (pid " << pid->asInt() << "): " << std::strerror(errno) << "\n";
        return 1;
    }
    for (int i = 0; i < waitS * 10 && isLockHeld(lock); ++i) ::usleep(100000);
    if (isLockHeld(lock)) {
        std::cerr << "shardbench-supervise: the supervisor is still stopping the ranks\n";
        return 1;
    }
    std::cout << "stopped (" << stateField(dir, "status") << ")\n";
    return 0;
}

// The signal reply (protocol/signal_reply.hpp) for the supervisors of
// `dir` found by process (the one at `pid` when > 0, else every one), after
// signalling them with `sig` (0: none) and waiting for them to exit.
int cmdSignal(const std::string& dir, int pid, long long startTime, int sig, int waitS)
{
    std::vector<int> pids;
    if (pid > 0 && isSupervisorOf(pid, dir, startTime)) pids.push_back(pid);
    else if (pid <= 0) pids = supervisorsOf(dir);
    std::vector<long long> started;
    for (int p : pids) started.push_back(processStartTime(p));
    std::vector<int> signalled;
    for (std::size_t i = 0; sig != 0 && i < pids.size(); ++i) {
        // Checked again right before the signal: only that process, started then, is ever signalled.
        if (!isSupervisorOf(pids[i], dir, started[i])) continue;
        if (::kill(static_cast<pid_t>(pids[i]), sig) != 0 && errno != ESRCH) {
            std::cerr << "shardbench-supervise: cannot signal the supervisor (pid " << pids[i] << "): " << std::strerror(errno) << "\n";
            return 1;
        }
        signalled.push_back(pids[i]);
    }
    auto anyAlive = [&] {
        for (std::size_t i = 0; i < pids.size(); ++i)
            if (isSupervisorOf(pids[i], dir, started[i])) return true;
        return false;
    };
    for (int i = 0; !signalled.empty() && i < waitS * 10 && anyAlive(); ++i) ::usleep(100000);
    const bool alive = anyAlive();
    struct stat st {};
    const bool dirExists = ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    sb::protocol::SignalReply reply;
    reply.alive = alive;
    reply.pids.assign(pids.begin(), pids.end());
    reply.signalled.assign(signalled.begin(), signalled.end());
    if (!started.empty() && started[0] >= 0) reply.startTime = started[0];
    reply.runDirExists = dirExists;
    std::cout << sb::protocol::signalReplyJson(reply) << "\n";
    if (!signalled.empty() && alive) {
        std::cerr << "shardbench-supervise: the supervisor is still stopping the ranks\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> argList(argv + 1, argv + argc);
    if (argList.size() == 1 && argList[0] == "--version") {
        std::cout << "shardbench-supervise " << sb::kReleaseVersion << " (spec version " << kSpecVersion << "; Slurm runs " << kSlurmSpecVersion << ")\n";
        return 0;
    }
    // --help anywhere, as the other two programs take it.
    for (const std::string& a : argList)
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return 0;
        }
    if (argList.size() < 2) return usage("expected a command and a run directory");
    const std::string& cmd = argList[0];
    // Each command's options; an option of another command is unexpected.
    std::set<std::string> valued, flags;
    if (cmd == "start") flags = {"--foreground"};
    else if (cmd == "stop") flags = {"--kill"}, valued = {"--wait"};
    else if (cmd == "signal") flags = {"--term", "--kill"}, valued = {"--pid", "--start-time", "--wait"};
    else if (cmd == "follow") flags = {"--once"}, valued = {"--logs", "--events", "--live-steps", "--wire"};
    else if (cmd != "status") return usage("unknown command \"" + cmd + "\"");
    sb::cli::Args args(argList, valued, flags);
    if (!args.ok())
        return usage(args.badArgument().empty() ? args.error() : "unexpected argument \"" + args.badArgument() + "\"");
    if (args.positional().size() < 2) return usage("expected a command and a run directory");
    if (args.positional().size() > 2) return usage("unexpected argument \"" + args.positional()[2] + "\"");
    const std::string dir = absolute(args.positional()[1]);
    const bool foreground = args.has("--foreground"), kill = args.has("--kill"), once = args.has("--once");
    const int waitS = static_cast<int>(args.integer("--wait", 30, 0, 24 * 3600));
    FollowOptions f;
    for (const std::string& name : valued)
        if (const auto value = args.value(name); value && isFollowOption(name))
            if (const Status bad = setFollowOption(&f, name, *value); !bad.ok()) return usage(bad.message());
    if (!args.ok()) return usage(args.error());
    if (cmd == "start") return cmdStart(dir, foreground);
    if (cmd == "stop") return cmdStop(dir, kill, waitS);
    if (cmd == "signal") {
        const int pid = static_cast<int>(args.integer("--pid", 0, 2, 1 << 22));
        const long long startTime = args.integer("--start-time", -1, 0, 1LL << 62);
        if (!args.ok()) return usage(args.error());
        if (args.has("--term") && kill) return usage("give --term or --kill, not both");
        if (args.has("--start-time") && !args.has("--pid")) return usage("--start-time needs --pid");
        // As `stop`: SIGTERM cancels, SIGUSR1 (--kill) skips the grace.
        return cmdSignal(dir, pid, startTime, kill ? SIGUSR1 : args.has("--term") ? SIGTERM : 0, waitS);
    }
    if (cmd == "status") {
        std::cout << "{\"alive\":" << (isLockHeld(join(dir, sb::protocol::kLockFile)) ? "true" : "false") << ",\"state\":" << readState(dir) << "}\n";
        return 0;
    }
    if (cmd == "follow") {
        ::signal(SIGPIPE, SIG_IGN);
        f.runDir = dir;
        f.once = once;
        f.watchStdin = readOffsets(0, &f.offsets);
        return follow(f);
    }
    return usage("unknown command \"" + cmd + "\"");
}
