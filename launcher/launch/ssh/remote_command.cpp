#include "remote_command.hpp"

#include "../shell_quote.hpp"

#include <QStringList>

namespace sb::launch {

// $1 pid file, $2 grace seconds, $3 working folder; then the command.
// fd 3 keeps the channel's stdin for the watchdog: an asynchronous list of a
// non-interactive shell gets /dev/null as stdin unless redirected.
const char* const kRankWrapperScript =
    "pidfile=$1 grace=$2 workdir=$3\n"
    "shift 3\n"
    "if [ -n \"$workdir\" ]; then cd -- \"$workdir\" || { echo \"shardbench: cannot enter the working folder $workdir\" >&2; exit 126; }; fi\n"
    "command -v setsid >/dev/null 2>&1 || { echo 'shardbench: setsid (util-linux) is missing on this host' >&2; exit 126; }\n"
    "exec 3<&0\n"
    "setsid \"$@\" </dev/null 3<&- &\n"
    "c=$!\n"
    "echo \"$c\" >\"$pidfile\" 2>/dev/null\n"
    "printf '@sbw pid %s\\n' \"$c\" >&2\n"
    "( while read -r _; do :; done <&3\n"
    "  kill -TERM -\"$c\" 2>/dev/null\n"
    "  sleep \"$grace\"\n"
    "  kill -KILL -\"$c\" 2>/dev/null ) &\n"
    "w=$!\n"
    "exec 3<&-\n"
    "wait \"$c\"\n"
    "s=$?\n"
    "kill \"$w\" 2>/dev/null\n"
    "rm -f \"$pidfile\"\n"
    "exit \"$s\"\n";

namespace {

const char* const kKillScript =
    "for f do\n"
    "  p=$(cat \"$f\" 2>/dev/null) || continue\n"
    "  case $p in ''|*[!0-9]*) continue;; esac\n"
    "  kill -KILL -\"$p\" 2>/dev/null\n"
    "done\n"
    "exit 0\n";

} // namespace

QByteArray buildRankCommand(const RemoteRankCommand& c, QString* error)
{
    QByteArrayList argv = {"/bin/sh", "-c", kRankWrapperScript, "sb-rank", c.pidFile.toUtf8(),
                           QByteArray::number(c.graceSeconds), c.workdir.toUtf8(), "env"};
    for (const auto& [name, value] : c.environment) {
        if (!isValidEnvName(name)) {
            if (error) *error = QStringLiteral("invalid environment variable name \"%1\"").arg(QString::fromUtf8(name));
            return {};
        }
        argv << name + '=' + value;
    }
    argv << c.program.toUtf8();
    argv << c.arguments;
    const QByteArray cmd = shellCommand(argv, error);
    return cmd.isEmpty() ? QByteArray() : QByteArray("exec ") + cmd;
}

QByteArray buildKillCommand(const QStringList& pidFiles, QString* error)
{
    QByteArrayList argv = {"/bin/sh", "-c", kKillScript, "sb-kill"};
    for (const QString& f : pidFiles) argv << f.toUtf8();
    const QByteArray cmd = shellCommand(argv, error);
    return cmd.isEmpty() ? QByteArray() : QByteArray("exec ") + cmd;
}

QByteArray listeningPortsCommand() { return QByteArrayLiteral("cat /proc/net/tcp /proc/net/tcp6 2>/dev/null"); }

} // namespace sb::launch
