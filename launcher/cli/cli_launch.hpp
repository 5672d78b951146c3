// What `run` and `preflight` hand the app's run service: the plan file read
// into a launch request with the target the options give (the ranks work in
// --workdir, else the current folder), and the pre-flight's environment
// (the core, the remote paths and SSH options of that target, this machine).
#pragma once

#include "run/launch_request.hpp"
#include "run/preflight.hpp"

#include <ostream>
#include <optional>

namespace sb::cli {

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
