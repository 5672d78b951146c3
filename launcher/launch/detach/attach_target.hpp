// Where a detached run lives and how a client reaches it: the run directory
// on this machine, on an SSH host (with the connection options, never a
// secret), or on the shared file system of a Slurm cluster with the job that
// runs it. Stored with the run (runs.attach_json) so that any later client
// on this machine can attach, stop or refresh it.
#pragma once

#include "../host_list.hpp"
#include "../run_config.hpp"
#include "status/qt_status.hpp"

#include <QString>

namespace sb::launch {

struct AttachTarget {
    enum class Transport { Local, Ssh, Slurm };
    Transport transport = Transport::Local;
    QString runDir;        // absolute, on the machine that holds it
    QString supervise;     // the shardbench-supervise program there (a path, or a name on PATH)
    HostSpec host;         // ssh: the head node
    SshOptions ssh;        // ssh: how to connect
    qint64 slurmJob = -1;  // slurm: the job whose batch script is the supervisor
    // local, ssh: the supervisor's process once it started, so that `stop`
    // finds it when its run directory is gone; the start time (clock ticks
    // after boot, /proc/PID/stat field 22) keeps a recycled pid from being
    // signalled (core/supervisor/supervisor_process.hpp). -1: not recorded.
    qint64 supervisorPid = -1;
    qint64 supervisorStartTime = -1;

    QString describe() const; // "this machine: DIR", "HOST:DIR" or "Slurm job N: DIR"
    QString toJson() const;
    // The target the text records, or why it is not one.
    static Result<AttachTarget> fromJson(const QString& text);
};

// The argv of a shardbench-supervise command for the target.
QByteArrayList superviseCommand(const AttachTarget& t, const QByteArrayList& args);

} // namespace sb::launch
