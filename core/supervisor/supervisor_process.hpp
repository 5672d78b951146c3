// The supervisor of a run as a process, found without its run directory (a
// scratch purge, a mistaken rm -rf leaves it and its ranks training, with no
// lock and no state.json to read). Its command line names the run directory
// (`shardbench-supervise start RUN_DIR [--foreground]`, the directory as the
// launcher passed it), and its start time (/proc/PID/stat field 22, clock
// ticks after boot) tells it from a process that got its pid later: a pid is
// signalled only when both match. Linux /proc only, as the rest of the
// supervisor.
#pragma once

#include <string>
#include <vector>

namespace sb::supervise {

// When `pid` started (clock ticks after boot); -1 when there is no such
// process or it is a zombie (it has exited, nothing to stop).
long long processStartTime(int pid);

// Whether `pid` is a live supervisor of `runDir`, started at `startTime`
// (any start time when it is < 0).
bool isSupervisorOf(int pid, const std::string& runDir, long long startTime);

// Every live supervisor of `runDir` (a scan of /proc), for a run whose
// record holds no pid (launched by a client before pids were recorded).
std::vector<int> supervisorsOf(const std::string& runDir);

} // namespace sb::supervise
