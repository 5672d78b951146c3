// Where a run's ranks start, read from the command line: --local, --slurm,
// --hosts FILE or --host H[:SLOTS]..., with the options each kind takes.
// `run`, `preflight` and `restore` read their target through these.
#pragma once

#include "args.hpp"

#include "launch/run_config.hpp"

#include <QString>
#include <QStringList>

#include <optional>
#include <set>
#include <string>

namespace sb::cli {

extern const char* const kTargetUsage; // the options below, for a usage line

std::set<std::string> targetValuedOptions();
std::set<std::string> targetFlags();

struct TargetError {
    QStringList lines;  // one sentence each
    bool usage = true;  // a misuse of the options (false: a host list's errors)
};

// Fills c.target (launch::targetFrom()) with the fields its kind takes: the
// core path and working folder, or the remote paths and SSH options.
std::optional<TargetError> readTarget(Args& a, launch::RunConfig& c);
// The SSH options (--connect-timeout, --connect-tries, --ssh-config,
// --known-hosts, --ssh-dir, --identity) given on `a` into `ssh`; false with
// a.error() set when a number is out of its range.
bool readSshOptions(Args& a, launch::SshOptions& ssh);
// The core's path checked (local: an executable; Slurm: absolute when given
// as a path); an SSH run refuses --core and --workdir.
std::optional<TargetError> checkTargetCore(const Args& a, launch::RunConfig& c);

} // namespace sb::cli
