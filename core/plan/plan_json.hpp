// Plan <-> versioned JSON. Reading never throws: every problem in the file is
// reported with its JSON path, and the plan returned holds what could be read.
#pragma once

#include "../json/json.hpp"
#include "plan.hpp"
#include "util/status.hpp"

#include <string>

namespace sb {

json::Value planToJson(const Plan& plan);
std::string planToString(const Plan& plan); // pretty, newline-terminated

struct PlanReadResult {
    Plan plan;
    Problems problems;  // syntax and field problems; run validatePlan for the rest
    bool ok() const { return !hasErrors(problems); }
};

PlanReadResult planFromJson(const json::Value& v);
PlanReadResult planFromString(const std::string& text);
// Reads a file; a missing or unreadable file is a problem at path "$".
PlanReadResult loadPlanFile(const std::string& path);
// Writes atomically and durably (util/atomic_file.hpp: a temporary file of
// its own, fsync, rename), or says why it could not.
Status savePlanFile(const Plan& plan, const std::string& path);

// Reads and validates in one go, as the CLI and the core do.
struct LoadedPlan {
    Plan plan;
    std::shared_ptr<const ModuleTree> tree;
    Problems problems;
    bool ok() const { return !hasErrors(problems); }
};
LoadedPlan loadAndValidate(const std::string& path);
LoadedPlan validateLoaded(PlanReadResult read);

} // namespace sb
