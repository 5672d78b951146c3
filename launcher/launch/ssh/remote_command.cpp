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

} // namespace

QByteArray buildRankCommand(const RemoteRankCommand& c, QString* error)
{
    QByteArrayList argv = {"/bin/sh", "-c", supervise::kRankWrapperScript, "sb-rank", c.pidFile.toUtf8(),
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
