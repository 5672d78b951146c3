// What `run` and `preflight` hand the app's run service: the plan file read
// into a launch request with the target the options give (the ranks work in
// --workdir, else the current folder), and the pre-flight's environment
// (the core, the remote paths and SSH options of that target, this machine).
#pragma once

#include "run/launch_request.hpp"
#include "run/preflight.hpp"
#include "status/qt_status.hpp"

#include <ostream>
#include <optional>
#include <set>
#include <string>

namespace sb {
class Args;
}

namespace sb::cli {


// --engine core|pytorch, --script FILE, --script-arg ARG..., --python PATH into `config` (a script
// for this machine or Slurm's shared file system made absolute; over SSH as
// the hosts have it); a message when they are misused.
std::set<std::string> engineValuedOptions();
[[nodiscard]] Status readEngineOptions(const Args& a, launch::RunConfig& config);

struct CliLaunch {
    app::LaunchRequest request;
    app::Preflight::Environment environment;
};

// nullopt when the plan file cannot be read (its problems are printed on
// `err`, each naming the file, after "shardbench-cli CMD: ").
std::optional<CliLaunch> readCliLaunch(const QString& planPath, const launch::RunConfig& config, const QString& launchDir,
                                       bool ignoreMemoryEstimate, const char* cmd, std::ostream& err);

// The checks that failed, each with its details, and the warnings of those
// that passed, one line each after "shardbench-cli CMD: " (the hint of the
// memory override with a memory refusal).
void printPreflightFindings(const app::Preflight& preflight, const char* cmd, std::ostream& err);

} // namespace sb::cli
