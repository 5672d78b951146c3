// The command lines shardbench sends to a remote shell. The only text that
// is not a single-quoted argument is fixed here; everything else (paths,
// names, environment values) travels as quoted arguments to /bin/sh -c
// scripts that use them as "$1"... and never evaluate them.
#pragma once

#include "status/qt_status.hpp"

#include <QByteArray>
#include <QByteArrayList>
#include <QList>
#include <QPair>
#include <QString>

#include "supervisor/remote_rank.hpp"

namespace sb::launch {

// The wrapper around one rank and its "@sbw pid N" line:
// supervise::kRankWrapperScript (core/supervisor/remote_rank.hpp), shared
// with shardbench-supervise.
using supervise::kWrapperPidPrefix;

struct RemoteRankCommand {
    QString pidFile;
    int graceSeconds = 2;
    QString workdir;                                   // "" = the home folder
    QList<QPair<QByteArray, QByteArray>> environment;  // NAME, VALUE
    QString program;                                   // the remote shardbench-core
    QByteArrayList arguments;
};

// "exec /bin/sh -c '<wrapper>' 'sb-rank' '<pidfile>' ... 'env' 'RANK=0' ... '<core>' ..."
// An error on a NUL byte or an invalid variable name.
Result<QByteArray> buildRankCommand(const RemoteRankCommand& c);

// Sends SIGKILL to the process groups whose PIDs are in the given files.
Result<QByteArray> buildKillCommand(const QStringList& pidFiles);

// Runs `core --plan PLAN --check-init-from INIT` in `workdir` ("" = the home
// folder), its stderr with its stdout: the pre-flight of --init-from on a
// host, before any rank starts. An error on a NUL byte.
Result<QByteArray> buildCheckInitFromCommand(const QString& workdir, const QString& core, const QString& planPath, const QString& initFrom);
// Whether that check passed, by its exit status; if not, what to report of its output.
[[nodiscard]] Status initFromChecked(const QString& hostName, const QString& initFrom, int exitStatus, const QByteArray& output);

// Lists listening TCP ports (for choosing a rendezvous port on host 0).
QByteArray listeningPortsCommand();

} // namespace sb::launch
