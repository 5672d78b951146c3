// A run ready to launch: the plan read and validated, ranks laid out on the
// hosts (host 0 gets ranks 0..slots-1, and so on), the environment of each
// rank. Everything a backend needs, computed once for all attempts.
#pragma once

#include "run_config.hpp"
#include "run_config_problems.hpp"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sb::launch {

struct RankSlot {
    int rank = 0;
    int localRank = 0;
    int localWorld = 1;
    int hostIndex = 0;
};

struct PreparedLaunch {
    RunConfig config;
    QString uid;            // the run's id, passed to the core as --run-id
    QByteArray planJson;    // the plan file as read: copied to hosts, stored
    QString planPath;       // absolute local path
    QString planName;
    QString planSummary;    // "transformer, 3 units, world 4"
    int planSteps = 0;
    bool planCheckpoints = false;
    int worldSize = 0;
    int nodes = 1;          // the plan's mesh
    int procsPerNode = 1;
    bool cuda = false;      // the plan's device
    // From the memory estimator (core/estimate), for the pre-flight.
    quint64 estimatedPeakBytes = 0;  // of the worst rank
    int estimatedWorstRank = 0;
    quint64 deviceMemoryBytes = 0;   // the plan's capacity per rank
    quint64 checkpointBytes = 0;     // one checkpoint of every rank (parameters and optimizer state)
    QString checkpointDir;           // the plan's, as written ("" = no checkpoints)
    // The PyTorch engine without a script of the user's: the plan's exported
    // FSDP2 script, shipped next to every copy of the plan as train.py.
    QByteArray scriptText;
    QList<HostSpec> hosts;  // local: one entry, "localhost"; slurm: one per node, named when allocated
    QList<RankSlot> ranks;
    const RankSlot* slotOf(int rank) const;
    QList<int> ranksOn(int hostIndex) const;
};

// What stops the launch and what the user should know, as the launcher's
// catalogue codes (runConfigMessages() words them in English).
struct PrepareResult {
    PreparedLaunch launch;
    std::vector<RunConfigProblem> errors;   // RunConfig::validate()'s, then the plan's and the layout's
    std::vector<RunConfigProblem> warnings;
    bool ok() const { return errors.empty(); }
};

// Validates the config, reads and validates the plan, checks that the hosts'
// slots add up to the plan's world size.
PrepareResult prepareLaunch(const RunConfig& config);

// A fresh run id: UTC time and random bits ("20250102-030405-9f3a1c").
QString newRunUid();

// Per attempt: what changes between restarts.
struct AttemptSpec {
    int attempt = 0;
    QString masterAddr;
    int masterPort = 0;
    QString resumeDir;
};

using Environment = QList<QPair<QByteArray, QByteArray>>;
// The torchrun environment of one rank (and shardbench's additions), in a
// fixed order.
Environment rankEnvironment(const PreparedLaunch& launch, const RankSlot& slot, const AttemptSpec& attempt);
// The part every rank shares that is not about the rendezvous:
// TORCHELASTIC_RUN_ID, TORCHELASTIC_RESTART_COUNT, TORCHELASTIC_MAX_RESTARTS,
// SB_RUN_NAME and the run's extra variables.
Environment runEnvironment(const PreparedLaunch& launch, const AttemptSpec& attempt);
// The name a Slurm node has in the run until srun names it.
QString unallocatedNodeName(int nodeIndex);
// shardbench-core's arguments after the program name.
QByteArrayList coreArguments(const PreparedLaunch& launch, const QString& planPath, const AttemptSpec& attempt);

// The file name of the exported script beside a copy of the plan.
inline constexpr const char* kScriptFile = "train.py";
// What every copy of the plan comes with, by file name: plan.json, and
// train.py when the ranks run the plan's exported script.
QList<QPair<QString, QByteArray>> shippedFiles(const PreparedLaunch& launch);

// What one rank runs, where `planPath` is the plan's copy and `core` the
// core's path there. The core: `core --plan P --run-id ID [--resume DIR]
// [--init-from W]`. PyTorch: `python SCRIPT [ARGS...] [--init-from W]`, the run's id in
// SHARDBENCH_RUN_ID (runEnvironment()); the script resumes from the newest
// checkpoint in its own folder CHECKPOINT_DIR/<run id>, as the exported one
// does, so no --resume: a run's --resume is SHARDBENCH_RESUME_FROM, the DCP
// checkpoint it starts from while that folder is empty.
struct RankProgram {
    QString program;
    QByteArrayList arguments;
};
RankProgram rankProgram(const PreparedLaunch& launch, const QString& core, const QString& planPath, const AttemptSpec& attempt);
// A committed torch.distributed.checkpoint folder: DCP writes .metadata last,
// once every rank's file is in (what a PyTorch run saves and resumes from);
// never shardbench-core's, which describes itself in index.json.
bool isDcpCheckpoint(const QString& dir);
// The step a checkpoint folder is named for (step-NNNNNN, as the scripts and
// the core name them), or -1.
int checkpointFolderStep(const QString& dir);

// Whether an attempt's checkpoint folder goes on the command line (--resume);
// a PyTorch run's script is given the first one in SHARDBENCH_RESUME_FROM.
inline bool takesResumeArgument(const PreparedLaunch& launch) { return launch.config.engine == Engine::Core; }

} // namespace sb::launch
