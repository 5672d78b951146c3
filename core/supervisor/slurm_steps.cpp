#include "slurm_steps.hpp"

#include "rank_process.hpp"
#include "remote_rank.hpp"
#include "run_dir.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::supervise {

const char* const kSlurmStepAnnouncement = "printf '@sbs step %s.%s\\n' \"$SLURM_JOB_ID\" \"$SLURM_STEP_ID\" >&2; ";

namespace {

std::string env(const char* name)
{
    const char* v = ::getenv(name);
    return v ? v : "";
}

std::string shortName(const std::string& host) { return host.substr(0, host.find('.')); }

} // namespace

Status resolveSlurmHosts(RunSpec& spec)
{
    const std::string job = env("SLURM_JOB_ID"), list = env("SLURM_JOB_NODELIST");
    if (job.empty() || list.empty())
        return Status::error("a Slurm run's supervisor must run inside its job (SLURM_JOB_ID and SLURM_JOB_NODELIST are not set)");
    const std::string cmd = "scontrol show hostnames " + shellQuote(list) + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return Status::error("cannot run scontrol");
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    std::vector<std::string> nodes;
    for (std::size_t start = 0, nl; start < out.size(); start = nl + 1) {
        nl = out.find('\n', start);
        if (nl == std::string::npos) nl = out.size();
        if (nl > start) nodes.push_back(out.substr(start, nl - start));
    }
    if (status != 0 || nodes.empty()) return Status::error("scontrol show hostnames " + list + " failed: " + out);
    if (nodes.size() < spec.hosts.size())
        return Status::error("the job has " + std::to_string(nodes.size()) + " node(s), the run needs " + std::to_string(spec.hosts.size()));
    // Slurm runs the batch script on the job's first node; should it not, this node still goes first.
    const std::string here = shortName(thisHostName());
    for (std::size_t i = 1; i < nodes.size(); ++i)
        if (shortName(nodes[i]) == here) std::swap(nodes[0], nodes[i]);
    const bool gpus = spec.gpusPerNode > 0;
    for (std::size_t h = 0; h < spec.hosts.size(); ++h) {
        spec.hosts[h].name = nodes[h];
        spec.hosts[h].ssh = slurmStepArgv(job, nodes[h], gpus, spec.gpusPerNode);
    }
    if (spec.masterAddr.empty()) spec.masterAddr = spec.hosts[static_cast<std::size_t>(spec.ranks.at(0).host)].name;
    return {};
}

std::vector<std::string> slurmStepArgv(const std::string& jobId, const std::string& node, bool gpus, int gpusPerNode)
{
    // --overlap: the ranks' steps share the node's allocation with each other
    // and with the batch step; --kill-on-bad-exit: a dead core ends its step.
    std::vector<std::string> argv = {"srun", "--jobid=" + jobId, "--nodes=1", "--ntasks=1", "--nodelist=" + node,
                                     "--overlap", "--kill-on-bad-exit=1", "--quiet", "--job-name=shardbench-rank"};
    if (gpus) argv.push_back("--gpus-per-node=" + std::to_string(gpusPerNode));
    argv.insert(argv.end(), {"/bin/sh", "-c"});
    return argv;
}

int slurmPreferredPort(const std::string& jobId, int attempt)
{
    const long long job = std::atoll(jobId.c_str());
    // 12000 ports as pickRendezvousPort's; 7 is prime to 12000, so the jobs
    // that share a node get distinct ports unless their ids differ by 12000.
    return 20000 + static_cast<int>((job * 7 + attempt) % 12000);
}

void killSlurmStep(const std::string& step)
{
    // "JOB.STEP" as the step announced it on its stderr, which the rank's
    // program shares: anything else (an option to scancel) is not cancelled.
    if (step.empty() || step.find_first_not_of("0123456789.+_") != std::string::npos || step.find('.') == std::string::npos) return;
    SpawnRequest req;
    req.argv = {"scancel", "--quiet", "--signal=KILL", step};
    // Best effort: a step that cannot be cancelled ends with its job.
    const Result<Spawned> s = spawnRank(req);
    if (s)
        for (int fd : {s.value().outFd, s.value().errFd}) ::close(fd);
}

} // namespace sb::supervise
