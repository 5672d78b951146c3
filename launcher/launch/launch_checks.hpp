// The pre-flight of a prepared run on its target, shared by the command line
// and the workbench: the estimated peak memory fits each rank's capacity,
// the core was built for the plan's device, the ranks fit the machine's
// cores or GPUs, and the checkpoint folder can be created and written with
// room for one checkpoint. docs/launcher.md ("Pre-flight") states the rules.
#pragma once

#include "prepared_launch.hpp"
#include "status/qt_status.hpp"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace sb::launch {

// What a machine offers its ranks; zero fields are unknown (not checked).
struct MachineFacts {
    int cores = 0;
    int gpus = 0;
    quint64 memTotalBytes = 0;
    quint64 memAvailableBytes = 0;
    static MachineFacts ofThisMachine(); // /proc/meminfo, the CPUs this process may use, /dev/nvidiaN
};

// What `shardbench-core --version` says about its build.
struct CoreBuild {
    bool known = false;
    bool cuda = false;          // "CUDA and NCCL"; else "CPU and Gloo"
    bool outputTooLong = false; // it printed more than kMaxCoreVersionBytes and was stopped (refused)
    QString text;               // the version line
};
CoreBuild parseCoreVersion(const QString& versionOutput);
// A version is one line; more than this is not shardbench-core's answer.
inline constexpr qsizetype kMaxCoreVersionBytes = 64 * 1024;
// Runs `corePath --version` (at most a few seconds, at most
// kMaxCoreVersionBytes read); unknown when it cannot.
CoreBuild probeCoreBuild(const QString& corePath);

// The memory verdict of a run: the worst rank's estimated peak against the
// capacity of a rank. The capacity is the plan's device memory; for a CPU
// plan run on this machine, at most this machine's available memory shared
// by its ranks.
struct MemoryVerdict {
    quint64 peakBytes = 0;
    int worstRank = 0;
    quint64 capacityBytes = 0;
    bool limitedByThisMachine = false; // the capacity is MemAvailable / local ranks
    bool fits() const { return peakBytes <= capacityBytes; }
    // "the estimated peak of rank 0 is 770 GiB but a rank has 16 GiB (the
    // plan's device memory)", as a refusal or as launched anyway.
    RunConfigProblem problem(bool ignored) const;
};
MemoryVerdict memoryVerdict(const PreparedLaunch& launch, const MachineFacts& thisMachine);

struct LaunchCheckOptions {
    bool ignoreMemoryEstimate = false; // --ignore-memory-estimate, or confirmed in the workbench
    bool checkMemory = true;           // the workbench shows memory as a check of its own
};

struct LaunchCheckResult {
    std::vector<RunConfigProblem> errors; // any one refuses the launch
    std::vector<RunConfigProblem> warnings;
    bool ok() const { return errors.empty(); }
};

// `core` is what the core reports about its build (unknown: not checked).
// The checkpoint folder is created if missing (local runs only).
LaunchCheckResult checkLaunchTarget(const PreparedLaunch& launch, const LaunchCheckOptions& options,
                                    const MachineFacts& thisMachine, const CoreBuild& core);

// Why the folder cannot hold one checkpoint of `bytes`, if it cannot: it is
// created when missing, a file is written and removed, and its file system has room.
std::optional<RunConfigProblem> checkpointFolderProblem(const QString& dir, quint64 bytes);

// Whether the run's initial weights (RunConfig::initFrom) can start the plan's
// model; if not, openWeightsFor()'s message (core/hf/hf_weights.hpp).
[[nodiscard]] Status checkInitialWeights(const PreparedLaunch& launch);

// Local ranks beyond this many per core are refused on a CPU plan.
inline constexpr int kMaxRanksPerCore = 4;

} // namespace sb::launch
