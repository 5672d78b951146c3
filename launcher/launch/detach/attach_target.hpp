// Where a detached run lives and how a client reaches it: the run directory
// on this machine, or on an SSH host (with the connection options, never a
// secret). Stored with the run (runs.attach_json) so that any later client
// on this machine can attach, stop or refresh it.
#pragma once

#include "../host_list.hpp"
#include "../run_config.hpp"

#include <QString>

namespace sb::launch {

struct AttachTarget {
    enum class Transport { Local, Ssh };
    Transport transport = Transport::Local;
    QString runDir;        // absolute, on the machine that holds it
    QString supervise;     // the shardbench-supervise program there (a path, or a name on PATH)
    HostSpec host;         // ssh: the head node
    SshOptions ssh;        // ssh: how to connect

    QString describe() const; // "this machine: DIR" or "HOST:DIR"
    QString toJson() const;
    // Returns "" or why the text is not an attach target.
    static QString fromJson(const QString& text, AttachTarget* out);
};

// The argv of a shardbench-supervise command for the target.
QByteArrayList superviseCommand(const AttachTarget& t, const QByteArrayList& args);

} // namespace sb::launch
