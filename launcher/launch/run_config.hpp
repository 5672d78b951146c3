// What a user asks for when launching a run: the plan, where its ranks run
// (the target, which alone holds the fields of its kind) and how they are
// supervised. Each part has defaults and validate().
#pragma once

#include "launch_target.hpp"

#include <QMap>
#include <QString>
#include <QStringList>

namespace sb::launch {

// What every rank runs (docs/launcher.md, "Engines"): shardbench-core, or a
// PyTorch training script under Python: the plan's exported FSDP2 script, or
// the user's own, which reports through shardbench_report.py.
enum class Engine { Core, PyTorch };
const char* engineName(Engine e); // "core", "pytorch"

struct RunConfig {
    QString planPath;
    QString name;                         // a label; the run's id is generated
    LaunchTarget target = LocalTarget{};
    int maxRestarts = 0;
    int masterPort = 0;                   // 0: a free port per attempt (slurm: the core's 15000 + job id % 15000)
    QString masterAddr;                   // "": 127.0.0.1 locally, else the first host's (node's) address
    QString resumeFrom;                   // the first attempt resumes from this checkpoint
    // Weights every rank starts from (a .safetensors file or a Hugging Face
    // model folder; on the cluster for SSH and Slurm runs): passed to every
    // attempt, and read only by one that resumes no checkpoint.
    QString initFrom;
    qint64 parentRun = -1;                // the run this one continues, if any
    int stopGraceMs = 2000;               // SIGTERM, then SIGKILL after this
    int stopDeadlineMs = 5000;            // every rank is stopped (or given up on) by then
    QMap<QString, QString> extraEnv;      // more environment for every rank (SB_THREADS, ...)
    Engine engine = Engine::Core;
    // PyTorch: the script every rank runs ("" = the plan's exported FSDP2
    // script, shipped next to the plan as train.py), where the ranks run, and
    // the Python that runs it (a path or a name on PATH there).
    QString script;
    QStringList scriptArgs; // after the script, as torchrun passes them
    QString python = QStringLiteral("python3");

    BackendKind backend() const { return backendOf(target); }
    // Whether the ranks build the plan's model (the core, the exported script):
    // only then can --init-from be checked against the plan.
    bool runsThePlansModel() const { return engine == Engine::Core || script.isEmpty(); }
    QStringList validate() const;
};

} // namespace sb::launch
