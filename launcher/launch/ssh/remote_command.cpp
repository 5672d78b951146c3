#include "remote_command.hpp"

#include "../shell_quote.hpp"

#include "supervisor/remote_rank.hpp"

#include <QStringList>

namespace sb::launch {

namespace {

const char* const kKillScript =
    "for f do\n"
    "  p=$(cat -- \"$f\" 2>/dev/null) || continue\n"
    "  case $p in ''|*[!0-9]*) continue;; esac\n"
    "  kill -KILL -\"$p\" 2>/dev/null\n"
    "done\n"
    "exit 0\n";

// In the rank's working folder, as the rank would read them.
const char* const kCheckInitFromScript =
    "workdir=$1\n"
    "shift\n"
    "if [ -n \"$workdir\" ]; then cd -- \"$workdir\" || { echo \"shardbench: cannot enter the working folder $workdir\"; exit 126; }; fi\n"
    "exec \"$@\" 2>&1\n";

// "exec " and the quoted command.
Result<QByteArray> execCommand(const QByteArrayList& argv)
{
    Result<QByteArray> cmd = shellCommand(argv);
    if (!cmd) return cmd.status();
    return QByteArray(QByteArray("exec ") + cmd.value());
}

} // namespace

Result<QByteArray> buildCheckInitFromCommand(const QString& workdir, const QString& core, const QString& planPath, const QString& initFrom)
{
    const QByteArrayList argv = {"/bin/sh", "-c", kCheckInitFromScript, "sb-check", workdir.toUtf8(), core.toUtf8(),
                                 "--plan", planPath.toUtf8(), "--check-init-from", initFrom.toUtf8()};
    return execCommand(argv);
}

Status initFromChecked(const QString& hostName, const QString& initFrom, int exitStatus, const QByteArray& output)
{
    if (exitStatus == 0) return {};
    QByteArray why = output.trimmed();
    // The core's own words: "shardbench-core: " and then what is wrong, or an error event.
    if (why.startsWith("shardbench-core: ")) why = why.mid(17);
    return qtError(QStringLiteral("%1: the initial weights %2 cannot start this plan (checked there, exit %3): %4")
                       .arg(hostName, initFrom)
                       .arg(exitStatus)
                       .arg(QString::fromUtf8(why.left(2000))));
}

Result<QByteArray> buildRankCommand(const RemoteRankCommand& c)
{
    QByteArrayList argv = {"/bin/sh", "-c", supervise::kRankWrapperScript, "sb-rank", c.pidFile.toUtf8(),
                           QByteArray::number(c.graceSeconds), c.workdir.toUtf8(), "env"};
    for (const auto& [name, value] : c.environment) {
        if (!isValidEnvName(name)) return qtError(QStringLiteral("invalid environment variable name \"%1\"").arg(QString::fromUtf8(name)));
        argv << name + '=' + value;
    }
    argv << c.program.toUtf8();
    argv << c.arguments;
    return execCommand(argv);
}

Result<QByteArray> buildKillCommand(const QStringList& pidFiles)
{
    QByteArrayList argv = {"/bin/sh", "-c", kKillScript, "sb-kill"};
    for (const QString& f : pidFiles) argv << f.toUtf8();
    return execCommand(argv);
}

QByteArray listeningPortsCommand() { return QByteArrayLiteral("cat /proc/net/tcp /proc/net/tcp6 2>/dev/null"); }

} // namespace sb::launch
