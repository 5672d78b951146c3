// Commands of shardbench-cli that work on plans: plan, validate, estimate,
// export-script, presets. Each returns the process exit code: 0 on success,
// 2 on bad input (message on `err`). A valid plan that does not fit is not an
// error: `estimate` says so and exits 0 (its JSON has "fits": false).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdPlan(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdValidate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdEstimate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdExportScript(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdPresets(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Each command's usage, as its errors and --help print it.
extern const char* const kPlanUsage;
extern const char* const kValidateUsage;
extern const char* const kEstimateUsage;
extern const char* const kExportScriptUsage;
extern const char* const kPresetsUsage;

} // namespace sb::cli
