// The torchrun environment of one rank, read and checked.
#pragma once

#include "elastic.hpp"

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
    int systemSampleS = 5; // SB_SYSTEM_SAMPLE_S: seconds between `system` events, 0 for none
    bool fromSlurm = false; // some values were derived from srun's SLURM_* variables
    ElasticEnv elastic;     // what torchrun's agent says (elastic.hpp)
};

// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT, torchrun's TORCHELASTIC_* and OMP_NUM_THREADS (and SB_* tuning
// variables; SB_THREADS wins over OMP_NUM_THREADS), derived from Slurm's variables
// under srun when they are not set (slurm_env.hpp). An error names the
// variable that is missing or malformed, or the two that disagree.
Status readDistEnv(DistEnv& env);

} // namespace sb::engine
