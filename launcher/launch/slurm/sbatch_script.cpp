#include "sbatch_script.hpp"

#include "srun_command.hpp"

#include "../printable.hpp"
#include "../shell_quote.hpp"

#include <QDateTime>
#include <QDir>
#include <QSysInfo>

namespace sb::launch {

namespace {

// What sbatch cannot read back from a #SBATCH value, in a message's words ("" if nothing):
// its parser has no escape for a line end, and a double quote in a double-quoted
// value would need one that older Slurm versions do not take.
QString unwritable(const QString& value, bool path)
{
    for (const QChar c : value) {
        if (c == QLatin1Char('"') || c.category() == QChar::Other_Control || c.unicode() == 0) return quotedChar(c);
        if (path && c == QLatin1Char('\\')) return quotedChar(c);
    }
    for (const char* word : {"hetjob", "packjob"}) // sbatch (case-insensitive): a line naming one separates the components of a job
        if (value.contains(QLatin1String(word), Qt::CaseInsensitive)) return QStringLiteral("\"%1\"").arg(QLatin1String(word));
    return {};
}

// One #SBATCH argument as sbatch reads it back: it splits the line at white
// space, takes '...' and "..." as quotes and \ as an escape, and stops at an
// unquoted #. A value with any of those goes in double quotes, its
// backslashes doubled; a plain one is written as it is, to stay readable.
QString directiveArgument(const QString& d)
{
    const qsizetype eq = d.indexOf(QLatin1Char('='));
    if (eq < 0) return d;
    const QString value = d.mid(eq + 1);
    static const QString special = QStringLiteral(" \t'\"\\#");
    bool plain = !value.isEmpty();
    for (const QChar c : value) plain = plain && !special.contains(c);
    if (plain) return d;
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    return d.left(eq + 1) + QLatin1Char('"') + escaped + QLatin1Char('"');
}

// Slurm expands %j, %x... in an --output pattern: a literal % is %%.
QString outputPattern(QString path) { return path.replace(QLatin1Char('%'), QStringLiteral("%%")); }

} // namespace

QString slurmRunRoot(const PreparedLaunch& l, const QString& runRoot)
{
    if (!runRoot.isEmpty()) return QDir(runRoot).absolutePath();
    const SlurmTarget& slurm = std::get<SlurmTarget>(l.config.target);
    const QString workdir = QDir(slurm.workdir.isEmpty() ? QDir::currentPath() : slurm.workdir).absolutePath();
    return workdir + QStringLiteral("/.shardbench/runs");
}

std::vector<RunConfigProblem> batchScriptProblems(const PreparedLaunch& l, const QString& runDir)
{
    using C = RunConfigCode;
    const SlurmOptions& o = std::get<SlurmTarget>(l.config.target).options;
    std::vector<RunConfigProblem> e;
    auto check = [&](const char* option, const QString& shown, const QString& value, bool path) {
        const QString what = unwritable(value, path);
        if (!what.isEmpty()) e.push_back({C::SlurmBatchValue, {textArg(QLatin1String(option)), textArg(printable(shown)), textArg(what)}});
    };
    check("--name", l.config.name, slurmJobName(l.config.name), false);
    // Partition, account and time have their forms (SlurmOptions::problems()); checked here too, for a launch not validated.
    check("--partition", o.partition, o.partition, false);
    check("--account", o.account, o.account, false);
    check("--time", o.timeLimit, o.timeLimit, false);
    for (const QString& a : o.extraArgs) check("--slurm-arg", a, a, false);
    check("--run-root", runDir, runDir, true);
    return e;
}

Result<QString> sbatchScript(const PreparedLaunch& l, const QString& runDir, const QString& supervise)
{
    if (const std::vector<RunConfigProblem> bad = batchScriptProblems(l, runDir); !bad.empty())
        return qtError(runConfigMessages(bad).join(QStringLiteral("; ")));
    const SlurmOptions& o = std::get<SlurmTarget>(l.config.target).options;
    QStringList directives = {
        QStringLiteral("--job-name=") + slurmJobName(l.config.name),
        QStringLiteral("--nodes=%1").arg(l.nodes),
        QStringLiteral("--ntasks-per-node=%1").arg(l.procsPerNode),
    };
    if (l.cuda) directives << QStringLiteral("--gpus-per-node=%1").arg(l.procsPerNode);
    if (!o.partition.isEmpty()) directives << QStringLiteral("--partition=") + o.partition;
    if (!o.account.isEmpty()) directives << QStringLiteral("--account=") + o.account;
    if (!o.timeLimit.isEmpty()) directives << QStringLiteral("--time=") + o.timeLimit;
    directives << QStringLiteral("--output=") + outputPattern(runDir) + QStringLiteral("/slurm-%j.out")
               << QStringLiteral("--chdir=") + runDir << QStringLiteral("--no-requeue");
    directives << o.extraArgs;
    // Every text in a comment is printable: a newline in one (a plan's preset,
    // a run's name) would end the comment and run the rest in the job.
    QString text = QStringLiteral(
                       "#!/bin/sh\n"
                       "# shardbench detached run %1%2, written by shardbench-cli on %3 at %4.\n"
                       "# Slurm is the run's supervisor: this job runs shardbench-supervise on its first\n"
                       "# node, which starts every rank as a step of the job (srun), restarts the ranks\n"
                       "# from the newest checkpoint (up to %5 time(s)) and writes the run's state and\n"
                       "# output into this folder; clients attach from the login node (docs/launcher.md,\n"
                       "# \"Detached runs\"). Plan: plan.json (%6); each rank's command: spec.json.\n")
                       // One pass: a "%1" in a name is text, not a place for the next argument.
                       .arg(printable(l.uid), l.config.name.isEmpty() ? QString() : QString(QStringLiteral(" (\"") + printable(l.config.name) + QStringLiteral("\")")),
                            printable(QSysInfo::machineHostName()), QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                            QString::number(l.config.maxRestarts), printable(l.planSummary));
    for (const QString& d : directives) text += QStringLiteral("#SBATCH ") + directiveArgument(d) + QLatin1Char('\n');
    const Result<QByteArray> cmd = shellCommand({supervise.toUtf8(), "start", runDir.toUtf8(), "--foreground"});
    if (!cmd) return cmd.status();
    return QString(text + QStringLiteral("\nexec ") + QString::fromUtf8(cmd.value()) + QLatin1Char('\n'));
}

} // namespace sb::launch
