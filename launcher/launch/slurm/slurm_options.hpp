// What a Slurm run asks of the scheduler beyond the plan's mesh. Empty fields
// leave the choice to Slurm (the default partition, account and time limit).
#pragma once

#include "../run_config_problems.hpp"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace sb::launch {

struct SlurmOptions {
    QString partition;          // srun --partition (a comma-separated list is allowed)
    QString account;            // srun --account
    QString timeLimit;          // srun --time: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, UNLIMITED
    // More srun options, one argument each, in the --name=value form. The
    // options the launcher sets itself (layout, output, cancel) are refused.
    QStringList extraArgs;
    std::vector<RunConfigProblem> problems() const;
};

// Why `arg` may not be passed to srun through SlurmOptions::extraArgs, if it may not.
std::optional<RunConfigProblem> extraSrunArgumentProblem(const QString& arg);

} // namespace sb::launch
