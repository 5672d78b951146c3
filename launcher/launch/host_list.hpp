// The hosts of a run: a hostfile in the DeepSpeed convention
//     # comment
//     gpu-node-1 slots=8
//     user@gpu-node-2 slots=8   # trailing comments too
// or --host arguments (NAME or NAME:SLOTS). Host names are checked like
// OpenSSH does since 9.6: no whitespace, quotes or shell metacharacters, so
// that a name can never reach a shell (ProxyCommand, Match exec) as code.
#pragma once

#include "status/qt_status.hpp"

#include "run_config_problems.hpp"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sb::launch {

struct HostSpec {
    QString name;   // as written: alias or address, optionally user@
    int slots = 0;  // ranks on this host; 0: not given (the plan's procs_per_node)
    QString userPart() const;  // "" when no user@
    QString hostPart() const;  // the name without user@
    QString label() const;     // "name slots=N"
};

struct HostListResult {
    QList<HostSpec> hosts;
    QStringList errors;        // "FILE:LINE: sentence"
    bool ok() const { return errors.isEmpty(); }
};

// What is wrong with `name` (user@host, host, [v6]), if anything.
std::optional<RunConfigProblem> hostNameProblem(const QString& name);
// The same in English, an error when `name` is not acceptable.
Status checkHostName(const QString& name);

HostListResult parseHostfileText(const QString& text, const QString& fileLabel);
HostListResult readHostfile(const QString& path);
// NAME or NAME:SLOTS (an IPv6 literal goes in brackets: [::1]:2).
HostListResult parseHostArguments(const QStringList& args);

} // namespace sb::launch
