// How a shardbench-cli command ends: the exit statuses every command uses
// (README, "Exit codes"; docs/launcher.md for run, attach and restore), and
// the usage error that ends a misused one. The Qt-free commands and app/cli
// both include this, so a status means the same in each.
#pragma once

#include <ostream>
#include <string>

namespace sb::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;             // a valid command failed; a run failed or cannot be reached
constexpr int kExitBadInput = 2;           // misused, bad input, or refused before anything started
constexpr int kExitCheckpointsFailed = 3;  // a run trained to the end, but checkpoints failed or lines were lost
constexpr int kExitCancelled = 130;        // cancelled (Ctrl-C), as a shell reports SIGINT

// "shardbench-cli CMD: MSG" and the usage line on `err`; returns kExitBadInput.
inline int usageError(std::ostream& err, const char* cmd, const std::string& msg, const char* usage)
{
    err << "shardbench-cli " << cmd << ": " << msg << "\nusage: " << usage << "\n";
    return kExitBadInput;
}

} // namespace sb::cli
