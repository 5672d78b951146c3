// What the workbench launches: a plan (the open one, or a restored
// checkpoint's with an adjusted mesh), where its ranks run, and how it is
// linked to a parent run. prepareRun() writes the plan file the ranks read
// and lays the run out with the launcher's prepareLaunch().
#pragma once

#include "launch/launch_target.hpp"
#include "launch/prepared_launch.hpp"
#include "plan/plan.hpp"

#include <QList>
#include <QString>

#include <optional>

namespace sb::app {

using launch::LaunchTarget;

struct LaunchRequest {
    Plan plan;
    QString name;
    QString planDir;        // relative paths in the plan are relative to this folder ("" = the launch folder)
    QString launchDir;      // where the plan is written for the ranks ("" = the workbench's setting)
    LaunchTarget target = launch::LocalTarget{};
    int maxRestarts = 0;
    QString resumeFrom;     // a checkpoint folder
    QString initFrom;       // weights to start from (a .safetensors file or a Hugging Face folder): relative to planDir
                            // on this machine and Slurm's; over SSH as the cluster has it
    qint64 parentRun = -1;
    bool detach = false;    // supervised where it runs: it outlives the workbench (docs/launcher.md#detached-runs)
};

struct PreparedRun {
    launch::PrepareResult result;
    QString planFile;       // the plan as written for the ranks
    std::optional<launch::RunConfigProblem> writeProblem; // the plan could not be written
    bool ok() const { return !writeProblem && result.ok(); }
};

// Writes the plan into the launch folder (relative checkpoint and data paths
// made absolute, so the store records where things really are) and prepares
// the launch, with the core paths and SSH options filled into the request's
// target (its chooser knows only where). Local runs work in `planDir`.
PreparedRun prepareRun(const LaunchRequest& request, const launch::SshOptions& ssh, const QString& localCore,
                       const QString& remoteCore, const QString& remoteDir);

// The plan with its relative checkpoint folder and data file resolved against `base`.
Plan withAbsolutePaths(Plan plan, const QString& base);

} // namespace sb::app
