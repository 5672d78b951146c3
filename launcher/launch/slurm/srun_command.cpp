#include "srun_command.hpp"

namespace sb::launch {

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
