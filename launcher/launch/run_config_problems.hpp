// What RunConfig::validate(), prepareLaunch() and checkLaunchTarget() find,
// as codes with arguments: the launcher's message catalogue, built like the core's (core/plan/problem_code.hpp).
// validate() returns these rows' English templates filled with their
// arguments; a front end can word a code in its own language instead.
#pragma once

#include "plan/problem.hpp"
#include "util/catalogue.hpp"

#include <QString>
#include <QStringList>

#include <vector>

// X(enumerator, code, template). Every argument is data (a name, a path, a
// number, a quoted character), never a sentence. The rows after RunConfig's own are what prepareLaunch() and
// checkLaunchTarget() find; byte sizes come formatted ("1.5 GiB").
#define SB_RUN_CONFIG_CATALOGUE(X) \
    X(PlanMissing, "run.plan_missing", "no plan file given") \
    X(MaxRestarts, "run.max_restarts", "max restarts must be 0 to %1") \
    X(MasterPort, "run.master_port", "the master port must be 1 to 65535") \
    X(StopGrace, "run.stop_grace", "the stop grace must be 0 to %1 ms") \
    X(StopDeadline, "run.stop_deadline", "the stop deadline must exceed the grace by 500 ms") \
    X(NameTooLong, "run.name_too_long", "the run name is longer than %1 characters") \
    X(NameNul, "run.name_nul", "the run name contains a NUL character") \
    X(ResumeNul, "run.resume_nul", "the resume folder contains a NUL character") \
    X(InitFromNul, "run.init_from_nul", "the initial weights path contains a NUL character") \
    X(InitFromDash, "run.init_from_dash", "the initial weights path must not start with '-'") \
    X(InitFromWeights, "run.init_from_weights", "the initial weights cannot start this plan's model: %1") \
    X(MasterAddr, "run.master_addr", \
      "--master-addr \"%1\" is not a host name or address (letters, digits, '.', '-', '_'; an IPv6 address in brackets)") \
    X(EnvName, "run.env_name", "\"%1\" is not a valid environment variable name") \
    X(EnvValueNul, "run.env_value_nul", "an environment value contains a NUL character") \
    X(CoreMissing, "run.core_missing", "no shardbench-core path given") \
    X(CoreNul, "run.core_nul", "the shardbench-core path contains a NUL character") \
    X(WorkdirNul, "run.workdir_nul", "the working folder contains a NUL character") \
    X(CoreDash, "run.core_dash", "the shardbench-core path must not start with '-'") \
    X(PythonMissing, "run.python_missing", "no Python given for the PyTorch engine") \
    X(PythonChars, "run.python_chars", "the Python path must not contain '=' or start with '-'") \
    X(PythonNul, "run.python_nul", "the Python path contains a NUL character") \
    X(ScriptNul, "run.script_nul", "the training script or one of its arguments contains a NUL character") \
    X(ScriptDash, "run.script_dash", "the training script path must not start with '-'") \
    X(ScriptWithCore, "run.script_with_core", "a training script runs with the PyTorch engine only (--engine pytorch)") \
    /* SlurmOptions::problems() */ \
    X(SlurmPartition, "run.slurm_partition", \
      "--partition \"%1\" is not a partition name (letters, digits, '.', '-', '_'; a list separated by commas)") \
    X(SlurmAccount, "run.slurm_account", "--account \"%1\" is not an account name (letters, digits, '.', '-', '_')") \
    X(SlurmTime, "run.slurm_time", \
      "--time \"%1\" is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)") \
    X(SlurmArgForm, "run.slurm_arg_form", "--slurm-arg \"%1\" is not an srun option in its long form (--name or --name=value)") \
    X(SlurmArgNul, "run.slurm_arg_nul", "--slurm-arg contains a NUL character") \
    X(SlurmArgReserved, "run.slurm_arg_reserved", "--slurm-arg %1: shardbench sets --%2 itself") \
    X(SlurmArgOwnOption, "run.slurm_arg_own_option", "--slurm-arg %1: shardbench sets --%2 itself; use --%2 instead") \
    X(SshNoHosts, "run.ssh_no_hosts", "an SSH run needs at least one host") \
    /* hostNameProblem(): user@host, host or [IPv6] */ \
    X(HostEmpty, "run.host_empty", "empty host name") \
    X(HostTooLong, "run.host_too_long", "host name \"%1...\" is longer than 255 characters") \
    X(HostTwoAts, "run.host_two_ats", "host name \"%1\" contains more than one '@'") \
    X(HostPartEmpty, "run.host_part_empty", "host name \"%1\" has an empty user, host or address part") \
    X(HostPartDash, "run.host_part_dash", "host name \"%1\" must not start with '-' (nor its part after '@')") \
    X(HostChar, "run.host_char", \
      "host name \"%1\" contains %2, which is not allowed (letters, digits, '.', '-' and '_' only)") \
    X(RemoteCoreMissing, "run.remote_core_missing", "no remote shardbench-core given") \
    X(RemoteCoreChars, "run.remote_core_chars", "the remote core path must not contain '=' or start with '-'") \
    X(RemoteDirMissing, "run.remote_dir_missing", "no remote run folder given") \
    X(RemoteCoreNul, "run.remote_core_nul", "the remote core path contains a NUL character") \
    X(RemoteDirNul, "run.remote_dir_nul", "the remote run folder contains a NUL character") \
    X(RemoteWorkdirNul, "run.remote_workdir_nul", "the remote working folder contains a NUL character") \
    X(SshConnectTimeout, "run.ssh_connect_timeout", "the SSH connect timeout must be 1 to %1 s") \
    X(SshKeepalive, "run.ssh_keepalive", "the SSH keepalive interval must be 1 to %1 s") \
    X(SshLiveness, "run.ssh_liveness", "the SSH liveness timeout must exceed the keepalive interval and be at most %1 s") \
    X(SshConnectTries, "run.ssh_connect_tries", "the number of SSH connect tries must be 1 to %1") \
    /* prepareLaunch(): the plan file and the ranks' layout */ \
    X(LaunchDirCreate, "launch.launch_dir", "cannot create the launch folder %1") \
    X(PlanWrite, "launch.plan_write", "the plan for the ranks was not written: %1") /* %1: the system's words */ \
    X(PlanNotFound, "launch.plan_not_found", "the plan file %1 does not exist") \
    X(PlanUnreadable, "launch.plan_unreadable", "cannot read the plan file %1: %2") /* %2: the system's words */ \
    X(PlanTooLarge, "launch.plan_too_large", "the plan file %1 is larger than 64 MiB") \
    X(PlanProblem, "launch.plan_problem", "%1: %2") /* %2: the plan problem's English */ \
    X(ScriptNotFound, "launch.script_not_found", "the training script %1 does not exist") \
    X(ResumeNotDcp, "launch.resume_not_dcp", \
      "%1 is not a DCP checkpoint (a step-NNNNNN folder holding .metadata): a PyTorch run resumes from torch.distributed.checkpoint") \
    X(SrunMissing, "launch.srun_missing", "srun is not on PATH: Slurm runs start from a machine of the cluster (a login node)") \
    X(SlotsMismatch, "launch.slots_mismatch", \
      "the hosts provide %1 slots [%2] but the plan's mesh needs %3 ranks (%4 nodes x %5 procs per node)") \
    X(NodesMismatch, "launch.nodes_mismatch", "the plan's mesh has %1 nodes but the run uses %2 hosts") \
    /* checkLaunchTarget(): what the machine that starts the ranks can do */ \
    X(MemoryOverDevice, "launch.memory_over_device", \
      "the estimated peak of rank %1 is %2 but a rank has %3 (the plan's device memory): it would run out of memory " \
      "(--ignore-memory-estimate launches it anyway)") \
    X(MemoryOverHere, "launch.memory_over_here", \
      "the estimated peak of rank %1 is %2 but a rank has %3 (this machine's available memory shared by its ranks): " \
      "it would run out of memory (--ignore-memory-estimate launches it anyway)") \
    X(MemoryOverDeviceIgnored, "launch.memory_over_device_ignored", \
      "the estimated peak of rank %1 is %2 but a rank has %3 (the plan's device memory); launched anyway " \
      "(--ignore-memory-estimate)") \
    X(MemoryOverHereIgnored, "launch.memory_over_here_ignored", \
      "the estimated peak of rank %1 is %2 but a rank has %3 (this machine's available memory shared by its ranks); " \
      "launched anyway (--ignore-memory-estimate)") \
    X(CoreWithoutCuda, "launch.core_without_cuda", "the plan runs on cuda but %1 was built without CUDA (%2)") \
    X(CoreVersionTooLong, "launch.core_version_too_long", \
      "%1 --version printed more than %2 and was stopped: the core's output was too long (is it shardbench-core?)") \
    X(TooFewGpus, "launch.too_few_gpus", "the plan runs %1 CUDA rank(s) on this machine, which has %2 GPU(s)") \
    X(TooManyRanks, "launch.too_many_ranks", \
      "the plan runs %1 ranks on this machine, which has %2 core(s): at most %3 ranks per core can make progress") \
    X(RanksShareCores, "launch.ranks_share_cores", "%1 ranks share %2 core(s): each step will be slow") \
    X(CheckpointDirNotWritable, "launch.checkpoint_dir_parent", \
      "the checkpoint folder %1 cannot be created (%2 is not writable)") \
    X(CheckpointDirNotFolder, "launch.checkpoint_dir_not_folder", \
      "the checkpoint folder %1 cannot be created (%2 is not a folder)") \
    X(CheckpointDirUnwritable, "launch.checkpoint_dir_unwritable", "the checkpoint folder %1 is not writable: %2") \
    X(CheckpointDirFull, "launch.checkpoint_dir_full", "the checkpoint folder %1 has %2 free but one checkpoint takes about %3") \
    /* batchScriptProblems(): what a detached Slurm run's batch script cannot carry (%3: a quoted character or word) */ \
    X(SlurmBatchValue, "launch.slurm_batch_value", "%1 \"%2\" cannot be written in a batch script: it contains %3")

namespace sb::launch {

struct RunConfig;
struct SshOptions;

enum class RunConfigCode { SB_RUN_CONFIG_CATALOGUE(SB_CATALOGUE_ENUMERATOR) };

struct RunConfigProblem {
    RunConfigCode code;
    std::vector<ProblemArg> args;
};

using RunConfigTemplate = CatalogueRow<RunConfigCode>; // "run.master_port", its English template

// Every row, in the order of the enum.
const std::vector<RunConfigTemplate>& runConfigCatalogue();
// The English sentence validate() returns for a problem.
QString runConfigMessage(const RunConfigProblem& p);
QStringList runConfigMessages(const std::vector<RunConfigProblem>& problems);

// A text argument from Qt's string (a path, a name, a sentence passed on).
inline ProblemArg textArg(const QString& s) { return ProblemArg(s.toStdString()); }

std::vector<RunConfigProblem> runConfigProblems(const RunConfig& config);
std::vector<RunConfigProblem> sshOptionProblems(const SshOptions& ssh);

} // namespace sb::launch
