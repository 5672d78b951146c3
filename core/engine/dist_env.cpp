#include "dist_env.hpp"

#include "slurm_env.hpp"

#include <cstdlib>
#include <thread>

namespace sb::engine {

namespace {

// The variables set for this process, then those derived from Slurm's.
SlurmVars gSlurm;

const char* lookup(const char* name)
{
    if (const char* v = std::getenv(name); v && *v) return v;
    auto it = gSlurm.find(name);
    return it == gSlurm.end() ? nullptr : it->second.c_str();
}

// Parses an integer variable; missing -> fallback (or an error when required).
Status readInt(const char* name, int& out, bool required, long min, long max)
{
    const char* v = lookup(name);
    if (!v || !*v) {
        if (required)
            return Status::error(std::string("environment variable ") + name + " is not set (start each rank with torchrun, srun or shardbench)");
        return {};
    }
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < min || n > max)
        return Status::error(std::string("environment variable ") + name + "=\"" + v + "\"" +
                             (gSlurm.count(name) && !std::getenv(name) ? " (derived from Slurm's)" : "") +
                             " is not an integer from " + std::to_string(min) + " to " + std::to_string(max));
    out = static_cast<int>(n);
    return {};
}

} // namespace

Status readDistEnv(DistEnv& env)
{
    Result<SlurmVars> slurm = torchrunFromSlurm([](const char* name) { return std::getenv(name); });
    if (!slurm) return slurm.status().prefixed("cannot read Slurm's task layout");
    gSlurm = std::move(slurm).value();
    env.fromSlurm = !gSlurm.empty();
    // A bare single process without any torchrun variable is a world of one.
    const bool single = !lookup("RANK") && !lookup("WORLD_SIZE");
    for (auto [name, target, min, max] : {std::tuple{"RANK", &env.rank, 0L, 1L << 24},
                                          std::tuple{"WORLD_SIZE", &env.world, 1L, 1L << 24}})
        if (Status e = readInt(name, *target, !single, min, max); !e.ok()) return e;
    env.localRank = env.rank;
    env.localWorld = env.world;
    if (Status e = readInt("LOCAL_RANK", env.localRank, false, 0, 1 << 16); !e.ok()) return e;
    if (Status e = readInt("LOCAL_WORLD_SIZE", env.localWorld, false, 1, 1 << 16); !e.ok()) return e;
    if (Status e = readInt("MASTER_PORT", env.masterPort, !single && env.world > 1, 1, 65535); !e.ok()) return e;
    if (Status e = readInt("SB_RENDEZVOUS_TIMEOUT_S", env.rendezvousTimeoutS, false, 1, 86400); !e.ok()) return e;
    if (Status e = readInt("SB_COLLECTIVE_TIMEOUT_S", env.collectiveTimeoutS, false, 1, 86400); !e.ok()) return e;
    if (const char* a = lookup("MASTER_ADDR")) env.masterAddr = a;
    else if (!single && env.world > 1) return Status::error("environment variable MASTER_ADDR is not set");

    if (env.rank >= env.world)
        return Status::error("RANK " + std::to_string(env.rank) + " is not below WORLD_SIZE " + std::to_string(env.world));
    if (env.localRank >= env.localWorld)
        return Status::error("LOCAL_RANK " + std::to_string(env.localRank) + " is not below LOCAL_WORLD_SIZE " +
                             std::to_string(env.localWorld));
    if (env.localWorld > env.world)
        return Status::error("LOCAL_WORLD_SIZE " + std::to_string(env.localWorld) + " exceeds WORLD_SIZE " + std::to_string(env.world));

    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    env.threads = std::max(1, static_cast<int>(cores) / env.localWorld);
    if (Status e = readInt("OMP_NUM_THREADS", env.threads, false, 1, 4096); !e.ok()) return e;
    if (Status e = readInt("SB_THREADS", env.threads, false, 1, 4096); !e.ok()) return e;
    if (Status e = readInt("SB_SYSTEM_SAMPLE_S", env.systemSampleS, false, 0, 86400); !e.ok()) return e;
    return readElasticEnv(env.elastic);
}

} // namespace sb::engine
