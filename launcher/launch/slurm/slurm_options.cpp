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

QString checkExtraSrunArgument(const QString& arg)
{
    static const QRegularExpression longOption(QStringLiteral("^--([a-z][a-z0-9-]*)(=.*)?$"),
                                               QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = longOption.match(arg);
    if (!m.hasMatch())
        return QStringLiteral("--slurm-arg \"%1\" is not an srun option in its long form (--name or --name=value)")
            .arg(printable(arg));
    if (arg.contains(QChar(0))) return QStringLiteral("--slurm-arg contains a NUL character");
    const QString name = m.captured(1);
    for (const char* exception : kNotAbbreviations)
        if (name == QLatin1String(exception)) return {};
    // srun, like getopt_long, also takes an unambiguous abbreviation.
    for (const char* reserved : kReservedOptions)
        if (QLatin1String(reserved).startsWith(name))
        {
            const QString own = QStringList{QStringLiteral("partition"), QStringLiteral("account"), QStringLiteral("time")}
                                        .contains(QLatin1String(reserved))
                                    ? QStringLiteral("; use --%1 instead").arg(QLatin1String(reserved))
                                    : QString();
            return QStringLiteral("--slurm-arg %1: shardbench sets --%2 itself%3").arg(printable(arg), QLatin1String(reserved), own);
        }
    return {};
}

QStringList SlurmOptions::validate() const
{
    static const QRegularExpression names(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.-]*(,[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$"));
    static const QRegularExpression time(QStringLiteral("^(\\d+-\\d+(:\\d+){0,2}|\\d+(:\\d+){0,2}|unlimited|infinite)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    QStringList e;
    if (!partition.isEmpty() && !names.match(partition).hasMatch())
        e << QStringLiteral("--partition \"%1\" is not a partition name (letters, digits, '.', '-', '_'; a list "
                            "separated by commas)")
                 .arg(printable(partition));
    if (!account.isEmpty() && !names.match(account).hasMatch())
        e << QStringLiteral("--account \"%1\" is not an account name (letters, digits, '.', '-', '_')").arg(printable(account));
    if (!timeLimit.isEmpty() && !time.match(timeLimit).hasMatch())
        e << QStringLiteral("--time \"%1\" is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, "
                            "D-HH:MM:SS or UNLIMITED)")
                 .arg(printable(timeLimit));
    for (const QString& a : extraArgs)
        if (QString bad = checkExtraSrunArgument(a); !bad.isEmpty()) e << bad;
    return e;
}

} // namespace sb::launch
