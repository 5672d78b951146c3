#include "srun_command.hpp"

namespace sb::launch {

// A Python rank is given torchrun's variables from the task's own, as the core
// derives them (engine/slurm_env.cpp): the rendezvous on the step's first
// node, at the port the core would pick (protocol/slurm_port.hpp's formula);
// set ones win. Fixed text: the program and its arguments come after it as
// "$@", never inside it.
const char kSlurmTaskShim[] =
    ": \"${RANK:=$SLURM_PROCID}\" \"${LOCAL_RANK:=$SLURM_LOCALID}\" \"${WORLD_SIZE:=$SLURM_NTASKS}\" "
    "\"${GROUP_RANK:=$SLURM_NODEID}\" \"${GROUP_WORLD_SIZE:=$SLURM_NNODES}\"\n"
    ": \"${LOCAL_WORLD_SIZE:=${SLURM_STEP_TASKS_PER_NODE%%[(,]*}}\"\n"
    "[ -n \"$MASTER_ADDR\" ] || MASTER_ADDR=$(scontrol show hostnames \"$SLURM_STEP_NODELIST\" | head -n 1)\n"
    "[ -n \"$MASTER_PORT\" ] || MASTER_PORT=$((15000 + (SLURM_JOB_ID % 15000 + (SLURM_STEP_ID % 15000) * 1009) % 15000))\n"
    "export RANK LOCAL_RANK WORLD_SIZE LOCAL_WORLD_SIZE GROUP_RANK GROUP_WORLD_SIZE MASTER_ADDR MASTER_PORT\n"
    "exec \"$@\"\n";

QString slurmJobName(const QString& runName)
{
    QString name = runName.trimmed();
    for (QChar& c : name)
        if (c.category() == QChar::Other_Control) c = QLatin1Char('_');
    return name.isEmpty() ? QStringLiteral("shardbench") : name;
}

QStringList srunArguments(const PreparedLaunch& launch, const AttemptSpec& attempt, const QString& planPath,
                          const QString& workdir)
{
    const SlurmTarget& slurm = std::get<SlurmTarget>(launch.config.target);
    const SlurmOptions& o = slurm.options;
    QStringList a = {
        QStringLiteral("--verbose"),
        QStringLiteral("--job-name=") + slurmJobName(launch.config.name),
        QStringLiteral("--nodes=%1").arg(launch.nodes),
        QStringLiteral("--ntasks=%1").arg(launch.worldSize),
        QStringLiteral("--ntasks-per-node=%1").arg(launch.procsPerNode),
        QStringLiteral("--distribution=block"),
        QStringLiteral("--kill-on-bad-exit=1"),
        QStringLiteral("--label"),
        QStringLiteral("--chdir=") + workdir,
    };
    if (launch.cuda) a << QStringLiteral("--gpus-per-node=%1").arg(launch.procsPerNode);
    if (!o.partition.isEmpty()) a << QStringLiteral("--partition=") + o.partition;
    if (!o.account.isEmpty()) a << QStringLiteral("--account=") + o.account;
    if (!o.timeLimit.isEmpty()) a << QStringLiteral("--time=") + o.timeLimit;
    a << o.extraArgs;
    const RankProgram program = rankProgram(launch, slurm.corePath, planPath, attempt);
    if (launch.config.engine == Engine::PyTorch)
        a << QStringLiteral("/bin/sh") << QStringLiteral("-c") << QString::fromLatin1(kSlurmTaskShim) << QStringLiteral("sb-rank");
    a << program.program;
    for (const QByteArray& arg : program.arguments) a << QString::fromUtf8(arg);
    return a;
}

QProcessEnvironment srunEnvironment(const PreparedLaunch& launch, const AttemptSpec& attempt, QProcessEnvironment env)
{
    static const char* const kRemoved[] = {
        "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE",
        "ROLE_RANK", "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
        "SLURM_UNBUFFEREDIO", "SLURM_LABELIO", "SLURM_STDOUTMODE", "SLURM_STDERRMODE", "SLURM_STDINMODE",
        "SLURM_EXPORT_ENV", "SRUN_EXPORT_ENV", "SLURM_DISABLE_STATUS", "SLURM_SRUN_REDUCE_TASK_EXIT_MSG",
        "SLURM_DISTRIBUTION", "SLURM_KILL_BAD_EXIT", "SLURM_JOB_NAME", "SLURM_WORKING_DIR", "SLURM_DEBUG",
    };
    for (const char* name : kRemoved) env.remove(QLatin1String(name));
    if (!attempt.masterAddr.isEmpty()) env.insert(QStringLiteral("MASTER_ADDR"), attempt.masterAddr);
    if (attempt.masterPort > 0) env.insert(QStringLiteral("MASTER_PORT"), QString::number(attempt.masterPort));
    for (const auto& [name, value] : runEnvironment(launch, attempt))
        env.insert(QString::fromUtf8(name), QString::fromUtf8(value));
    return env;
}

} // namespace sb::launch
