// Commands that read the run store: runs, show, metrics, logs. Need a
// QCoreApplication (for the SQL driver). Exit codes: 0, or 2 on bad input
// (unknown run, missing store).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdRuns(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdShow(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdMetrics(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdLogs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The usage of each, as its errors and --help print it.
extern const char* const kRunsUsage;
extern const char* const kShowUsage;
extern const char* const kMetricsUsage;
extern const char* const kLogsUsage;

} // namespace sb::cli
