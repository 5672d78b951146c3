// What a front end launches: a plan (the workbench's open one, a restored
// checkpoint's with an adjusted mesh, or the command line's plan file), and
// the launcher's RunConfig saying where its ranks run and how they are
// supervised (its planPath is filled by prepareRun). prepareRun() writes the
// plan file the ranks read and lays the run out with the launcher's
// prepareLaunch().
#pragma once

#include "launch/detach/detached_launch.hpp"
#include "launch/launch_target.hpp"
#include "launch/prepared_launch.hpp"
#include "launch/run_config.hpp"
#include "plan/plan.hpp"

#include <QList>
#include <QString>

#include <optional>

namespace sb::app {

// Where a detached run's supervisor lives, when not the defaults of
// launch::defaultDetachOptions() (empty fields keep the default).
struct DetachChoice {
    QString runRoot;
    QString supervise;
    QString headSshConfig;
};

struct LaunchRequest {
    Plan plan;
    // The target, name, restarts, resume and initial weights (initFrom:
    // relative to planDir on this machine and Slurm's; over SSH as the
    // cluster has it), parent run, rendezvous, stop grace and environment.
    launch::RunConfig config;
    QString planDir;        // relative paths in the plan are relative to this folder ("" = the launch folder)
    QString launchDir;      // where the plan is written for the ranks ("" = the workbench's setting)
    bool detach = false;    // supervised where it runs: it outlives the front end (docs/launcher.md#detached-runs)
    DetachChoice detachChoice;
};

// The detached run's options: the defaults for a run recorded in the store at
// `storePath`, with the request's choices.
launch::DetachOptions detachOptions(const LaunchRequest& request, const launch::PreparedLaunch& prepared, const QString& storePath);

struct PreparedRun {
    launch::PrepareResult result;
    QString planFile;       // the plan as written for the ranks
    std::optional<launch::RunConfigProblem> writeProblem; // the plan could not be written
    bool ok() const { return !writeProblem && result.ok(); }
};

// Writes the plan into the launch folder (relative checkpoint and data paths
// made absolute, so the store records where things really are) and prepares
// the launch, with the core paths and SSH options filled into the request's
// target (its chooser knows only where) where the front end left them empty.
// Runs on this machine or Slurm's work in `planDir`; an SSH run's relative
// paths stay relative to its remote working folder.
PreparedRun prepareRun(const LaunchRequest& request, const launch::SshOptions& ssh, const QString& localCore,
                       const QString& remoteCore, const QString& remoteDir);

// The plan with its relative checkpoint folder and data files resolved against `base`.
Plan withAbsolutePaths(Plan plan, const QString& base);

} // namespace sb::app
