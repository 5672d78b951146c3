// `shardbench-cli run`: launch a plan locally or over SSH, supervise it,
// record it in the run store. Returns the exit code: 0 completed, 1 failed,
// 2 bad input, 130 cancelled. Needs a QCoreApplication.
#pragma once

#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace sb::cli {

int cmdRun(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The options `run` takes (with and without a value), for commands that pass them on.
std::set<std::string> runValuedOptions();
std::set<std::string> runFlags();

// The usage of each, as its errors and --help print it.
extern const char* const kRunUsage;

} // namespace sb::cli
