// Under srun, Slurm describes each task with SLURM_* variables, not
// torchrun's. torchrunFromSlurm() derives torchrun's variables from them so
// that `srun shardbench-core --plan PLAN.json` needs no wrapper script:
//   RANK             = SLURM_PROCID
//   WORLD_SIZE       = SLURM_NTASKS
//   LOCAL_RANK       = SLURM_LOCALID
//   LOCAL_WORLD_SIZE = this node's entry (SLURM_NODEID) of
//                      SLURM_STEP_TASKS_PER_NODE, else SLURM_TASKS_PER_NODE
//   MASTER_ADDR      = the first host of SLURM_STEP_NODELIST, else SLURM_JOB_NODELIST
//   MASTER_PORT      = 15000 + SLURM_JOB_ID % 15000 (below Linux's ephemeral ports)
// It applies only inside a job step (SLURM_STEP_ID set) and only when RANK
// and WORLD_SIZE are not set; variables set explicitly always win.
// Torch-free and Qt-free.
#pragma once

#include "util/status.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sb::engine {

using EnvLookup = std::function<const char*(const char*)>;

// torchrun name -> value; empty outside a job step or when RANK or WORLD_SIZE is set.
using SlurmVars = std::map<std::string, std::string>;

// An error names the SLURM_* variable that is wrong.
Result<SlurmVars> torchrunFromSlurm(const EnvLookup& env);

// "node[07-09,12],gpu3" -> "node07"; "rack[1-2]-n[4-5]" -> "rack1-n4";
// refused when the expression is malformed.
Result<std::string> firstHost(const std::string& hostlist);
// "2(x3),1" -> {2, 2, 2, 1}; refused when malformed.
Result<std::vector<int>> tasksPerNode(const std::string& spec);

} // namespace sb::engine
