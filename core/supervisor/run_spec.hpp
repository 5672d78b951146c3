// What one detached run is: written by the launcher into RUN_DIR/spec.json,
// read by shardbench-supervise on the run's head node. The launcher computes
// every rank's fixed environment; the supervisor adds what changes per
// attempt (MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RESTART_COUNT, --resume).
#pragma once

#include "json/json.hpp"
#include "util/status.hpp"

#include <string>
#include <utility>
#include <vector>

namespace sb::supervise {

inline constexpr int kSpecVersion = 1;
// A Slurm spec is version 2: a supervisor that knows only version 1 would
// start every rank on the batch node, so it must refuse the spec instead.
inline constexpr int kSlurmSpecVersion = 2;

using EnvList = std::vector<std::pair<std::string, std::string>>;

struct RankSpec {
    int rank = 0;
    int host = 0;        // index into RunSpec::hosts
    EnvList env;         // RANK, WORLD_SIZE, LOCAL_RANK, ... (fixed for the run)
};

struct HostSpec {
    std::string name;                // for messages and the state file
    std::vector<std::string> ssh;    // empty: this host; else the argv that reaches it ("ssh", ..., "host"; Slurm: "srun", ..., "-c")
};

struct RunSpec {
    std::string runId;
    std::string name;
    int worldSize = 0;
    int maxRestarts = 0;
    int stopGraceMs = 2000;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 0;                  // 0: a free port per attempt
    std::string workdir;                 // "": the run directory
    std::string program;                 // shardbench-core
    std::vector<std::string> args;       // its arguments, --resume added per attempt
    std::string resumeFrom;              // the first attempt's checkpoint, if any
    // Whether an attempt's checkpoint goes on the command line (--resume DIR):
    // shardbench-core's; a PyTorch script resumes from its own folder.
    bool resumeArgument = true;
    // Slurm: the supervisor runs in the run's job; hosts[] are placeholders for
    // its nodes, resolved at start (slurm_steps.hpp); master_addr "" is rank 0's node.
    bool slurm = false;
    int gpusPerNode = 0;                 // Slurm: GPUs each rank's step asks for (cuda plans)
    std::vector<HostSpec> hosts;
    std::vector<RankSpec> ranks;         // in rank order
};

// Reads and checks a spec, or says what is wrong with it.
Result<RunSpec> parseRunSpec(const std::string& text);
std::string runSpecToJson(const RunSpec& spec);
// ["a", "b"]: a list of strings as a JSON array (the spec's args, a reason's arguments).
json::Value stringsToJson(const std::vector<std::string>& list);

} // namespace sb::supervise
