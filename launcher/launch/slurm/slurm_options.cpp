#include "slurm_options.hpp"

#include "../printable.hpp"

#include <QRegularExpression>

namespace sb::launch {

namespace {

// srun options the launcher sets or depends on: the rank layout, the
// labelled and line-buffered output it parses, the status lines it reads,
// the cancel semantics, and the ones with their own shardbench option.
const char* const kReservedOptions[] = {
    "nodes", "ntasks", "ntasks-per-node", "distribution", "kill-on-bad-exit", "label", "unbuffered",
    "verbose", "quiet", "output", "error", "input", "open-mode", "multi-prog", "pty", "export",
    "chdir", "job-name", "partition", "account", "time", "gpus-per-node", "quit-on-interrupt", "disable-status",
};
// Real srun options that are also abbreviations of a reserved one.
const char* const kNotAbbreviations[] = {"gpus"};

} // namespace

// The patterns end in \z, not $: $ also matches before a final newline, and
// "gpu\n" would pass for a partition name.
std::optional<RunConfigProblem> extraSrunArgumentProblem(const QString& arg)
{
    using C = RunConfigCode;
    static const QRegularExpression longOption(QStringLiteral("^--([a-z][a-z0-9-]*)(=.*)?\\z"),
                                               QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = longOption.match(arg);
    if (!m.hasMatch()) return RunConfigProblem{C::SlurmArgForm, {textArg(printable(arg))}};
    if (arg.contains(QChar(0))) return RunConfigProblem{C::SlurmArgNul, {}};
    const QString name = m.captured(1);
    for (const char* exception : kNotAbbreviations)
        if (name == QLatin1String(exception)) return std::nullopt;
    // srun, like getopt_long, also takes an unambiguous abbreviation.
    for (const char* reserved : kReservedOptions) {
        if (!QLatin1String(reserved).startsWith(name)) continue;
        const bool ownOption = QStringList{QStringLiteral("partition"), QStringLiteral("account"), QStringLiteral("time")}
                                   .contains(QLatin1String(reserved));
        return RunConfigProblem{ownOption ? C::SlurmArgOwnOption : C::SlurmArgReserved,
                                {textArg(printable(arg)), textArg(QLatin1String(reserved))}};
    }
    // A detached run's batch script says --no-requeue: a requeued job would
    // start the supervisor again on a run it has already ended (srun has no --requeue).
    if (QLatin1String("requeue").startsWith(name))
        return RunConfigProblem{C::SlurmArgReserved, {textArg(printable(arg)), textArg(QLatin1String("no-requeue"))}};
    return std::nullopt;
}

std::vector<RunConfigProblem> SlurmOptions::problems() const
{
    using C = RunConfigCode;
    static const QRegularExpression names(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.-]*(,[A-Za-z0-9_.][A-Za-z0-9_.-]*)*\\z"));
    static const QRegularExpression time(QStringLiteral("^(\\d+-\\d+(:\\d+){0,2}|\\d+(:\\d+){0,2}|unlimited|infinite)\\z"),
                                         QRegularExpression::CaseInsensitiveOption);
    std::vector<RunConfigProblem> e;
    if (!partition.isEmpty() && !names.match(partition).hasMatch()) e.push_back({C::SlurmPartition, {textArg(printable(partition))}});
    if (!account.isEmpty() && !names.match(account).hasMatch()) e.push_back({C::SlurmAccount, {textArg(printable(account))}});
    if (!timeLimit.isEmpty() && !time.match(timeLimit).hasMatch()) e.push_back({C::SlurmTime, {textArg(printable(timeLimit))}});
    for (const QString& a : extraArgs)
        if (auto bad = extraSrunArgumentProblem(a)) e.push_back(*bad);
    return e;
}

} // namespace sb::launch
