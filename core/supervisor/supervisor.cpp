#include "supervisor.hpp"

#include "protocol/core_exit.hpp"
#include "protocol/run_limits.hpp"

#include "rank_process.hpp"
#include "supervisor_rank.hpp"
#include "remote_rank.hpp"
#include "slurm_steps.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::supervise {

namespace {

constexpr double kRestartDelayS = 1.0;
constexpr double kDrainAfterExitS = 2.0;   // a grandchild may hold a pipe open
// A state that could not be written (a full disk) is tried again this often,
// and for this long once the run has ended: its end must reach state.json.
constexpr double kStateRetryS = 1.0;
constexpr double kFinalStateRetryS = 60.0;
// Launch at scale: at most kMaxConnecting ssh sessions authenticating at
// once, and a session that fails to connect (ssh exits 255 before the
// wrapper reports) is tried kConnectTries times (core/protocol/run_limits.hpp).
using limits::kConnectTries;
using limits::kMaxConnecting;
constexpr int kSshConnectFailed = 255;

int g_signalPipe[2] = {-1, -1};

void onSignal(int sig)
{
    const int saved = errno;
    const char c = sig == SIGCHLD ? 'C' : sig == SIGUSR1 ? 'K' : sig == SIGTERM ? 'S' : 'T';
    const ssize_t ignored = ::write(g_signalPipe[1], &c, 1);
    (void)ignored;
    errno = saved;
}


} // namespace


const char* runStateName(RunState s)
{
    switch (s) {
    case RunState::Starting: return "starting";
    case RunState::Running: return "running";
    case RunState::Restarting: return "restarting";
    case RunState::Completed: return "completed";
    case RunState::Failed: return "failed";
    case RunState::Cancelled: return "cancelled";
    }
    return "?";
}

bool isFinalState(const std::string& s) { return s == "completed" || s == "failed" || s == "cancelled"; }

void installSupervisorSignals()
{
    if (g_signalPipe[0] < 0) {
        if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
    }
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGUSR1}) ::sigaction(sig, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN); // a dropped terminal or SSH session is not a stop request
}

Supervisor::Supervisor(RunSpec spec, std::string runDir) : spec_(std::move(spec)), dir_(std::move(runDir)), stateFile_(dir_)
{
    // Without its log file the supervisor says what it does on stderr (log()).
    if (const Status opened = supervisorLog_.open(join(dir_, protocol::kSupervisorLog)); !opened.ok())
        std::cerr << "shardbench-supervise: " << opened.message() << "\n";
    for (int r = 0; r < spec_.worldSize; ++r) {
        auto rank = std::make_unique<Rank>();
        rank->rank = r;
        ranks_.push_back(std::move(rank));
    }
}

Supervisor::~Supervisor()
{
    for (auto& r : ranks_)
        if (r->running) signalGroup(r->pid, SIGKILL);
}

std::optional<FailureReason> Supervisor::rankReason(const Rank& r) const
{
    return rankFailure(r.rank, hostOf(r), r.ending, !r.lastError.empty() ? r.lastError : r.lastStderr);
}

int Supervisor::restartsBeforeFailing() const
{
    return state_ == RunState::Failed && !attempts_.empty() ? attempts_.back().index : 0;
}

std::string Supervisor::hostOf(const Rank& r) const
{
    const HostSpec& h = spec_.hosts[static_cast<std::size_t>(spec_.ranks[static_cast<std::size_t>(r.rank)].host)];
    return h.name.empty() ? thisHostName() : h.name;
}


int Supervisor::failToStart(const std::string& reason)
{
    startedAt_ = endedAt_ = unixNow();
    state_ = RunState::Failed;
    reason_ = FailureReason{FailureCode::RunNotStarted, {reason}};
    log("run failed: " + reason);
    writeState();
    supervisorLog_.sync();
    stateFile_.releaseReserve();
    return 1;
}

void Supervisor::killRank(Rank& r)
{
    // srun killed with SIGKILL leaves its step running: Slurm kills the step.
    if (!r.slurmStep.empty()) killSlurmStep(r.slurmStep);
    signalGroup(r.pid, SIGKILL);
}

int Supervisor::run()
{
    startedAt_ = unixNow();
    log("supervisor " + std::to_string(::getpid()) + " on " + thisHostName() + ": run " + spec_.runId + ", " +
        std::to_string(spec_.worldSize) + " rank(s), up to " + std::to_string(spec_.maxRestarts) + " restart(s)");
    writeState();
    restartAt_ = unixNow();
    while (!finished_) {
        if (!attemptActive_ && unixNow() >= restartAt_) {
            if (cancelled_) {
                state_ = endedBySlurm_ ? RunState::Failed : RunState::Cancelled;
                endedAt_ = unixNow();
                finished_ = true;
                exitCode_ = endedBySlurm_ ? 1 : 130;
                writeState();
                break;
            }
            startAttempt();
        }
        pollOnce(100);
        // Rewritten while nothing changes too: its "updated_at" tells a client that this process still runs.
        // Sooner when there is news (lines lost) or the last write failed (a full disk may have room again).
        if (stateDue_ || unixNow() - stateWrittenAt_ >= protocol::kStateRefreshS || (stateUnwritten_ && unixNow() - stateFailedAt_ >= kStateRetryS))
            writeState();
        if (attemptActive_) startPendingRanks();
        if (stopping_ && killAt_ > 0 && unixNow() >= killAt_) {
            for (auto& r : ranks_)
                if (r->running) killRank(*r);
            killAt_ = 0;
        }
        if (attemptActive_) {
            const bool allDone = std::all_of(ranks_.begin(), ranks_.end(), [](const auto& r) {
                return r->exited && !r->pending && ((r->outFd < 0 && r->errFd < 0) || unixNow() - r->exitedAt > kDrainAfterExitS);
            });
            if (allDone) endAttempt();
        }
    }
    // The run's end must reach state.json: the disk may have room again. A run
    // directory that is gone (removed under the run) never will: no waiting for it.
    auto dirExists = [this] {
        struct stat st {};
        return ::stat(dir_.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    };
    for (const double until = unixNow() + kFinalStateRetryS; stateUnwritten_ && unixNow() < until && dirExists();) {
        ::usleep(static_cast<useconds_t>(kStateRetryS * 1e6));
        writeState();
    }
    supervisorLog_.sync();
    stateFile_.releaseReserve();
    return exitCode_;
}

void Supervisor::startAttempt()
{
    Attempt a;
    a.index = static_cast<int>(attempts_.size());
    a.startedAt = unixNow();
    a.status = "running";
    a.resumeDir = a.index == 0 ? spec_.resumeFrom : latestCheckpoint_;
    if (a.index > 0 && a.resumeDir.empty()) a.resumeDir = spec_.resumeFrom;
    const char* job = spec_.slurm ? ::getenv("SLURM_JOB_ID") : nullptr;
    a.masterPort = spec_.masterPort > 0 ? spec_.masterPort : pickRendezvousPort(job ? slurmPreferredPort(job, a.index) : 0);
    attempts_.push_back(a);
    attemptActive_ = true;
    stopping_ = false;
    killAt_ = 0;
    if (const Status st = makeDirs(join(dir_, protocol::attemptDir(a.index))); !st.ok()) log(st.message());
    log("attempt " + std::to_string(a.index) + ": starting " + std::to_string(spec_.worldSize) + " rank(s) (rendezvous " +
        spec_.masterAddr + ":" + std::to_string(a.masterPort) + ")" +
        (a.resumeDir.empty() ? std::string() : ", resuming from " + a.resumeDir));
    state_ = RunState::Running;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        ranks_[i] = std::make_unique<Rank>();
        ranks_[i]->rank = static_cast<int>(i);
    }
    for (auto& r : ranks_) {
        const int host = spec_.ranks[static_cast<std::size_t>(r->rank)].host;
        r->remote = !spec_.hosts[static_cast<std::size_t>(host)].ssh.empty();
        if (stopping_) {
            r->exited = true;
            r->exitText = "not started";
        } else if (r->remote) {
            r->pending = true;
            r->startAt = unixNow();
        } else {
            startRank(*r);
        }
    }
    startPendingRanks();
    writeState();
}

void Supervisor::startPendingRanks()
{
    const double now = unixNow();
    int connecting = 0;
    for (const auto& r : ranks_) connecting += r->remote && r->running && !r->confirmed;
    for (auto& r : ranks_) {
        if (!r->pending) continue;
        if (stopping_) {
            r->pending = false;
            r->exited = true;
            r->exitedAt = now;
            r->exitText = "not started";
            continue;
        }
        if (connecting >= kMaxConnecting || r->startAt > now) continue;
        r->pending = false;
        startRank(*r);
        connecting += r->running;
    }
}

void Supervisor::startRank(Rank& r)
{
    const Attempt& a = attempts_.back();
    // A rank whose events or log cannot be recorded is not started: the run
    // directory is all a client will ever see of it.
    Status files = r.events.open(join(dir_, protocol::rankEventsFile(a.index, r.rank)));
    if (files.ok()) files = r.log.open(join(dir_, protocol::rankLogFile(a.index, r.rank)));
    SpawnRequest req;
    req.argv.push_back(spec_.program);
    req.argv.insert(req.argv.end(), spec_.args.begin(), spec_.args.end());
    if (!a.resumeDir.empty() && spec_.resumeArgument) {
        req.argv.push_back("--resume");
        req.argv.push_back(a.resumeDir);
    }
    req.env = spec_.ranks[static_cast<std::size_t>(r.rank)].env;
    req.env.emplace_back("MASTER_ADDR", spec_.masterAddr);
    req.env.emplace_back("MASTER_PORT", std::to_string(a.masterPort));
    req.env.emplace_back("TORCHELASTIC_RESTART_COUNT", std::to_string(a.index));
    // Here: in the working folder (default: the home folder). Another host:
    // the same command line through ssh and the wrapper, which enters the folder there.
    const char* home = ::getenv("HOME");
    const std::string base = home && *home ? home : dir_;
    req.workdir = spec_.workdir.empty() ? base : spec_.workdir[0] == '/' ? spec_.workdir : join(base, spec_.workdir);
    Result<Spawned> s = Spawned{};
    if (!files.ok()) {
        s = files;
    } else if (r.remote) {
        const HostSpec& h = spec_.hosts[static_cast<std::size_t>(spec_.ranks[static_cast<std::size_t>(r.rank)].host)];
        const std::string pidFile = "/tmp/shardbench-" + spec_.runId + "-rank-" + std::to_string(r.rank) + ".pid";
        const Result<std::string> wrapped = remoteRankCommand(pidFile, std::max(1, spec_.stopGraceMs / 1000), spec_.workdir, req.env,
                                                              req.argv[0], std::vector<std::string>(req.argv.begin() + 1, req.argv.end()));
        ++r.tries;
        if (wrapped) {
            req.argv = h.ssh;
            req.argv.push_back(spec_.slurm ? kSlurmStepAnnouncement + wrapped.value() : wrapped.value());
            req.env.clear();
            req.workdir = dir_;
            req.stdinPipe = true;
            s = spawnRank(req);
        } else {
            s = wrapped.status();
        }
    } else {
        s = spawnRank(req);
    }
    if (!s) {
        r.exited = true;
        r.exitedAt = unixNow();
        r.exitText = "could not be started: " + s.error();
        r.ending = {RankEnding::NotStarted, 0, {}, s.error()};
        log("rank " + std::to_string(r.rank) + " " + r.exitText);
        attempts_.back().reason = rankReason(r);
        attempts_.back().failingRank = r.rank;
        attempts_.back().status = "not_started";
        beginStop(false);
        return;
    }
    r.pid = s.value().pid;
    r.outFd = s.value().outFd;
    r.errFd = s.value().errFd;
    r.inFd = s.value().inFd;
    r.running = true;
}

void Supervisor::pollOnce(int timeoutMs)
{
    std::vector<pollfd> fds;
    std::vector<std::pair<Rank*, char>> owners;
    fds.push_back({g_signalPipe[0], POLLIN, 0});
    owners.emplace_back(nullptr, 0);
    for (auto& r : ranks_) {
        if (r->outFd >= 0) {
            fds.push_back({r->outFd, POLLIN, 0});
            owners.emplace_back(r.get(), 'o');
        }
        if (r->errFd >= 0) {
            fds.push_back({r->errFd, POLLIN, 0});
            owners.emplace_back(r.get(), 'e');
        }
    }
    if (::poll(fds.data(), fds.size(), timeoutMs) < 0 && errno != EINTR) return;
    for (std::size_t i = 1; i < fds.size(); ++i)
        if (fds[i].revents) readFrom(*owners[i].first, fds[i].fd, owners[i].second);
    if (fds[0].revents & POLLIN) {
        char sigs[64];
        ssize_t n;
        bool term = false, kill = false, sigterm = false;
        while ((n = ::read(g_signalPipe[0], sigs, sizeof sigs)) > 0)
            for (ssize_t i = 0; i < n; ++i) {
                term = term || sigs[i] == 'T';
                kill = kill || sigs[i] == 'K';
                sigterm = sigterm || sigs[i] == 'S';
            }
        // In a Slurm job SIGTERM is Slurm ending the job; `stop` sends SIGINT (SIGUSR1 with --kill) there.
        const bool bySlurm = sigterm && spec_.slurm;
        term = term || (sigterm && !spec_.slurm);
        if ((term || kill || bySlurm) && !cancelled_) {
            cancelled_ = true;
            endedBySlurm_ = bySlurm && !term && !kill;
            reason_ = FailureReason{endedBySlurm_ ? FailureCode::SlurmEndedJob : FailureCode::StoppedOnRequest, {}};
            log("stop requested: stopping every rank");
            if (attemptActive_) beginStop(kill);
            else writeState();
        } else if (kill && stopping_) {
            killAt_ = unixNow();
        }
    }
    reapChildren();
}

void Supervisor::reapChildren()
{
    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0)
        for (auto& r : ranks_)
            if (r->running && r->pid == pid) onExit(*r, status);
}

void Supervisor::closeInput(Rank& r)
{
    if (r.inFd >= 0) ::close(r.inFd);
    r.inFd = -1;
}

void Supervisor::onExit(Rank& r, int status)
{
    closeInput(r);
    r.running = false;
    r.exited = true;
    r.exitedAt = unixNow();
    r.exitText = describeWaitStatus(status);
    if (WIFSIGNALED(status)) r.ending = {RankEnding::Signaled, WTERMSIG(status), signalName(WTERMSIG(status)), {}};
    else r.ending = {RankEnding::Exited, WIFEXITED(status) ? WEXITSTATUS(status) : -1, {}, {}};
    if (r.remote && WIFEXITED(status) && WEXITSTATUS(status) == kSshConnectFailed && !spec_.slurm) {
        r.exitText = r.confirmed ? "lost its connection (ssh exited with 255)" : "could not be reached (ssh exited with 255)";
        r.ending.kind = r.confirmed ? RankEnding::ConnectionLost : RankEnding::Unreachable;
    }
    // The wrapper (and srun) exit with 128 + N for a core killed by signal N.
    if (r.remote && r.confirmed && WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 160) {
        const int sig = WEXITSTATUS(status) - 128;
        r.exitText = "was killed by signal " + std::to_string(sig) + " (" + signalName(sig) + ")";
        r.ending = {RankEnding::Signaled, sig, signalName(sig), {}};
    }
    // Pick up what it printed last, before deciding anything.
    if (r.outFd >= 0) readFrom(r, r.outFd, 'o');
    if (r.errFd >= 0) readFrom(r, r.errFd, 'e');
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (r.remote && !spec_.slurm && !r.confirmed && !stopping_ && WIFEXITED(status) && WEXITSTATUS(status) == kSshConnectFailed &&
        r.tries < kConnectTries) {
        const double wait = std::min(30.0, 1.0 * (1 << (r.tries - 1)));
        log("rank " + std::to_string(r.rank) + ": connecting to " + hostOf(r) + " failed (" +
            (r.lastStderr.empty() ? std::string("ssh exited with 255") : r.lastStderr) + "); try " +
            std::to_string(r.tries + 1) + " of " + std::to_string(kConnectTries) + " in " + std::to_string(static_cast<int>(wait)) + " s");
        for (int* fd : {&r.outFd, &r.errFd})
            if (*fd >= 0) {
                ::close(*fd);
                *fd = -1;
            }
        r.exited = false;
        r.exitText.clear();
        r.pending = true;
        r.startAt = unixNow() + wait;
        return;
    }
    log("attempt " + std::to_string(attempts_.back().index) + ": rank " + std::to_string(r.rank) + " on " + hostOf(r) +
        " " + r.exitText);
    if (ok || stopping_) {
        writeState();
        return;
    }
    Attempt& a = attempts_.back();
    a.failingRank = r.rank;
    a.reason = rankReason(r);
    if (WIFEXITED(status) && WEXITSTATUS(status) == protocol::code(protocol::CoreExit::BadInput)) a.status = "bad_input";
    log((a.reason ? a.reason->message() : "rank " + std::to_string(r.rank) + " " + r.exitText) + "; stopping every other rank");
    beginStop(false);
}

void Supervisor::beginStop(bool immediately)
{
    if (!stopping_) {
        stopping_ = true;
        for (auto& r : ranks_) {
            if (!r->running) continue;
            // A remote rank's wrapper stops the core when its session's stdin ends.
            if (r->remote && !immediately) closeInput(*r);
            else if (immediately) killRank(*r);
            else signalGroup(r->pid, SIGTERM);
        }
        killAt_ = immediately ? 0 : unixNow() + spec_.stopGraceMs / 1000.0;
    } else if (immediately) {
        killAt_ = unixNow();
    }
    writeState();
}

void Supervisor::endAttempt()
{
    attemptActive_ = false;
    for (auto& r : ranks_) {
        if (r->outFd >= 0) ::close(r->outFd);
        if (r->errFd >= 0) ::close(r->errFd);
        r->outFd = r->errFd = -1;
        r->events.sync();
        r->log.sync();
        r->events.close();
        r->log.close();
    }
    Attempt& a = attempts_.back();
    a.endedAt = unixNow();
    const bool allOk = std::all_of(ranks_.begin(), ranks_.end(), [](const auto& r) { return r->exitText == "exited with code 0"; });
    if (cancelled_) {
        a.status = endedBySlurm_ ? "failed" : "cancelled";
        a.reason = reason_;
        state_ = endedBySlurm_ ? RunState::Failed : RunState::Cancelled;
        exitCode_ = endedBySlurm_ ? 1 : 130;
        finished_ = true;
    } else if (allOk && a.failingRank < 0) {
        a.status = "completed";
        state_ = RunState::Completed;
        reason_.reset();
        if (!failedCheckpoints_.empty()) reason_ = checkpointsFailedReason(failedCheckpoints_.size(), firstCheckpointFailure_);
        failingRank_ = -1;
        failingHost_.clear();
        exitCode_ = 0;
        finished_ = true;
    } else {
        const bool retryable = a.status == "running"; // not bad input, every rank started
        a.status = "failed";
        if (!a.reason) a.reason = FailureReason{FailureCode::RanksUnfinished, {}};
        failingRank_ = a.failingRank;
        failingHost_ = a.failingRank >= 0 ? hostOf(*ranks_[static_cast<std::size_t>(a.failingRank)]) : std::string();
        reason_ = a.reason;
        if (retryable && a.index < spec_.maxRestarts) {
            state_ = RunState::Restarting;
            restartAt_ = unixNow() + kRestartDelayS;
            log("attempt " + std::to_string(a.index) + " failed: " + a.reason->message() + "; restarting (" +
                std::to_string(a.index + 1) + " of " + std::to_string(spec_.maxRestarts) + ")" +
                (latestCheckpoint_.empty() ? " from scratch" : " from " + latestCheckpoint_));
        } else {
            state_ = RunState::Failed;
            exitCode_ = 1;
            finished_ = true;
        }
    }
    if (finished_) {
        endedAt_ = unixNow();
        log(std::string("run ") + runStateName(state_) + (reason_ ? ": " + reason_->message() + afterRestartsText(restartsBeforeFailing()) : ""));
    }
    writeState();
}

} // namespace sb::supervise
