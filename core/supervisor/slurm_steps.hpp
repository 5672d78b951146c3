// Detached Slurm runs (docs/launcher.md#detached-runs): the supervisor is the
// batch script of the run's own job and starts every rank as a job step of
// one task on its node (srun --overlap), under the same wrapper as a remote
// rank (remote_rank.hpp): closing the step's stdin stops the core there.
#pragma once

#include "run_spec.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sb::supervise {

// What a rank's step prints first on stderr: "@sbs step JOB.STEP".
inline constexpr char kSlurmStepPrefix[] = "@sbs step ";
// The shell text that prints it, put before the wrapper's command.
extern const char* const kSlurmStepAnnouncement;

// Reads the job's nodes (SLURM_JOB_ID, SLURM_JOB_NODELIST through `scontrol
// show hostnames`), puts this node first when it is one of them (the
// rendezvous port is checked here, on rank 0's node), names spec.hosts after
// them and gives each the srun argv that starts a step there. MASTER_ADDR
// becomes rank 0's node unless the spec sets one. False and why on failure.
Status resolveSlurmHosts(RunSpec& spec);

// srun ... --nodelist=NODE ... /bin/sh -c (the command follows).
std::vector<std::string> slurmStepArgv(const std::string& jobId, const std::string& node, bool gpus, int gpusPerNode);

// The port tried first for an attempt: distinct for jobs that share a node.
int slurmPreferredPort(const std::string& jobId, int attempt);

// scancel --signal=KILL JOB.STEP, not waited for (the supervisor reaps it).
void killSlurmStep(const std::string& step);

} // namespace sb::supervise
