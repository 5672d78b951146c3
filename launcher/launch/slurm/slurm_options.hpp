// What a Slurm run asks of the scheduler beyond the plan's mesh. Empty fields
// leave the choice to Slurm (the default partition, account and time limit).
#pragma once

#include <QString>
#include <QStringList>

namespace sb::launch {

struct SlurmOptions {
    QString partition;          // srun --partition (a comma-separated list is allowed)
    QString account;            // srun --account
    QString timeLimit;          // srun --time: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, UNLIMITED
    // More srun options, one argument each, in the --name=value form. The
    // options the launcher sets itself (layout, output, cancel) are refused.
    QStringList extraArgs;
    QStringList validate() const;
};

// "" when `arg` may be passed to srun through SlurmOptions::extraArgs, else why not.
QString checkExtraSrunArgument(const QString& arg);

} // namespace sb::launch
