// The command lines shardbench sends to a remote shell. The only text that
// is not a single-quoted argument is fixed here; everything else (paths,
// names, environment values) travels as quoted arguments to /bin/sh -c
// scripts that use them as "$1"... and never evaluate them.
#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QList>
#include <QPair>
#include <QString>

namespace sb::launch {

// The wrapper around one rank: starts the core in its own session and
// process group (setsid), records its PID (= PGID) in a file, prints
// "@sbw pid N" on stderr, and runs a watchdog that, when its stdin (the SSH
// channel) reaches end-of-file, sends SIGTERM to the group and SIGKILL after
// the grace. Closing the channel, losing the connection, or killing the
// group therefore always stops the rank. Exits with the core's status.
extern const char* const kRankWrapperScript;

// The stderr line of the wrapper giving the core's PID.
inline constexpr char kWrapperPidPrefix[] = "@sbw pid ";

struct RemoteRankCommand {
    QString pidFile;
    int graceSeconds = 2;
    QString workdir;                                   // "" = the home folder
    QList<QPair<QByteArray, QByteArray>> environment;  // NAME, VALUE
    QString program;                                   // the remote shardbench-core
    QByteArrayList arguments;
};

// "exec /bin/sh -c '<wrapper>' 'sb-rank' '<pidfile>' ... 'env' 'RANK=0' ... '<core>' ..."
// Returns "" and sets `error` on a NUL byte or an invalid variable name.
QByteArray buildRankCommand(const RemoteRankCommand& c, QString* error);

// Sends SIGKILL to the process groups whose PIDs are in the given files.
QByteArray buildKillCommand(const QStringList& pidFiles, QString* error);

// Lists listening TCP ports (for choosing a rendezvous port on host 0).
QByteArray listeningPortsCommand();

} // namespace sb::launch
