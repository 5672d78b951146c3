#include "sbatch_script.hpp"

#include "srun_command.hpp"

#include "../printable.hpp"
#include "../shell_quote.hpp"

#include <QDateTime>
#include <QSysInfo>

namespace sb::launch {

namespace {

// A #SBATCH value: sbatch splits the line at white space unless the value is in double quotes.
bool directiveValue(const QString& value, QString* out)
{
    for (const QChar c : value)
        if (c.category() == QChar::Other_Control || c == QLatin1Char('"')) return false;
    *out = value.contains(QLatin1Char(' ')) || value.contains(QLatin1Char('\t')) ? QLatin1Char('"') + value + QLatin1Char('"') : value;
    return true;
}

} // namespace

QString sbatchScript(const PreparedLaunch& l, const QString& runDir, const QString& supervise, QString* error)
{
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
    directives << QStringLiteral("--output=") + runDir + QStringLiteral("/slurm-%j.out")
               << QStringLiteral("--chdir=") + runDir << QStringLiteral("--no-requeue");
    directives << o.extraArgs;
    QString text = QStringLiteral(
                       "#!/bin/sh\n"
                       "# shardbench detached run %1%2, written by shardbench-cli on %3 at %4.\n"
                       "# Slurm is the run's supervisor: this job runs shardbench-supervise on its first\n"
                       "# node, which starts every rank as a step of the job (srun), restarts the ranks\n"
                       "# from the newest checkpoint (up to %5 time(s)) and writes the run's state and\n"
                       "# output into this folder; clients attach from the login node (docs/launcher.md,\n"
                       "# \"Detached runs\"). Plan: plan.json (%6); each rank's command: spec.json.\n")
                       .arg(l.uid, l.config.name.isEmpty() ? QString() : QStringLiteral(" (\"%1\")").arg(printable(l.config.name)),
                            QSysInfo::machineHostName(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
                       .arg(l.config.maxRestarts)
                       .arg(l.planSummary);
    for (const QString& d : directives) {
        const qsizetype eq = d.indexOf(QLatin1Char('='));
        QString value;
        if (!directiveValue(eq < 0 ? QString() : d.mid(eq + 1), &value)) {
            *error = QStringLiteral("%1 cannot be written in a batch script (a double quote or control character)").arg(printable(d));
            return {};
        }
        text += QStringLiteral("#SBATCH ") + (eq < 0 ? d : d.left(eq + 1) + value) + QLatin1Char('\n');
    }
    QString quoteError;
    const QByteArray cmd = shellCommand({supervise.toUtf8(), "start", runDir.toUtf8(), "--foreground"}, &quoteError);
    if (!quoteError.isEmpty()) {
        *error = quoteError;
        return {};
    }
    return text + QStringLiteral("\nexec ") + QString::fromUtf8(cmd) + QLatin1Char('\n');
}

} // namespace sb::launch
