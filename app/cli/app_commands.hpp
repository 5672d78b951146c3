// The command line's way into the services the workbench uses (app/):
// `preflight` runs the workbench's pre-flight checks, `probe` its connection
// test of one host, `restore` its restore of a checkpoint at another world
// size. Exit codes: 0 passed (or the run completed), 1 a check or the run
// failed, 2 bad input. Need a QCoreApplication.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdPreflight(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdProbe(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdRestore(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The usage of each, as its errors and --help print it.
extern const char* const kPreflightUsage;
extern const char* const kProbeUsage;
extern const char* const kRestoreUsage;

} // namespace sb::cli
