// The torchrun environment of one rank, read and checked.
#pragma once

#include <string>

namespace sb::engine {

struct DistEnv {
    int rank = 0;
    int world = 1;
    int localRank = 0;
    int localWorld = 1;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    int rendezvousTimeoutS = 60;
    int collectiveTimeoutS = 300;
    int threads = 1;
    bool fromSlurm = false; // some values were derived from srun's SLURM_* variables
};

// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT (and SB_* tuning variables), derived from Slurm's variables
// under srun when they are not set (slurm_env.hpp). Returns an error
// sentence naming the variable, or "" when everything is consistent.
std::string readDistEnv(DistEnv& env);

} // namespace sb::engine
