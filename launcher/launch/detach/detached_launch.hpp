// Launching a run that outlives its client: lay out the run directory (on
// this machine, on the SSH head node, or on a Slurm cluster's shared file
// system), record the run in the store with where it lives, and start
// shardbench-supervise there, detached (Slurm: as the batch script of a job). From then
// on the run needs no client; AttachSession catches up with it.
#pragma once

#include "attach_target.hpp"

#include "../prepared_launch.hpp"
#include "../ssh/host_key_policy.hpp"
#include "store/run_store.hpp"
#include "supervisor/run_spec.hpp"

#include <QString>

namespace sb::launch {

struct DetachOptions {
    QString runRoot;     // local: the folder that gets RUN_ID/ (default: "runs" beside the store); slurm: "" = WORKDIR/.shardbench/runs
    QString supervise;   // local, slurm: the shardbench-supervise binary (slurm: at a path every node sees); ssh: the remote one ("" = beside the remote core)
    QString headSshConfig; // ssh with several hosts: the OpenSSH config file the head node reaches the others with ("" = its ~/.ssh/config)
};

// Where a detached run lives and which supervisor runs it when the user named
// neither, the same for every front end: local runs in "runs" beside the
// store at `storePath`; Slurm runs in WORKDIR/.shardbench/runs, on the file
// system the nodes share; the supervisor beside the core that runs the ranks
// (on this machine, or at the path every node sees; a core given as a name on
// the nodes' PATH: "shardbench-supervise" on it too), over SSH beside the
// remote core.
DetachOptions defaultDetachOptions(const PreparedLaunch& launch, const QString& storePath);

struct DetachedRun {
    qint64 runId = -1;
    AttachTarget target;
    qint64 supervisorPid = -1;
};

// The spec the supervisor runs: every rank's fixed environment, the core and
// its arguments (the plan at `planPath` on the cluster).
supervise::RunSpec runSpecFor(const PreparedLaunch& launch, const QString& planPath, const QString& program,
                              const QString& workdir);

// The remote shardbench-supervise for an SSH run: the one beside the remote
// core when that is a path, else the name on the remote PATH.
QString defaultRemoteSupervise(const QString& remoteCore);

// Blocking (connects over SSH). Ok, or why the run did not start; the run is
// recorded either way once the store accepted it (out->runId >= 0).
[[nodiscard]] Status launchDetached(const PreparedLaunch& launch, const DetachOptions& options, store::RunStore& store,
                                    HostKeyPolicy& policy, DetachedRun* out);

} // namespace sb::launch
