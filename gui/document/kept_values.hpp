// Values of an opened plan file that the reader could not use: a word where a
// number belongs ("n_layers": "eight"), a number out of range
// ("procs_per_node": -3), a key nobody reads. The plan holds a default in
// their place; the document keeps each value as written, its field shows it
// marked invalid, and a save writes it back, until the person sets the field.
#pragma once

#include "plan/plan.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sb::gui {

struct KeptValue {
    // Where it was in the file. Inside units[i] the unit is found again by its
    // module (unit), so an edit that adds or removes units does not move it.
    JsonPath path;
    std::optional<std::string> unit;
    json::Value raw;   // as written in the file
    Problem problem;   // what the reader said about it
};
using KeptValues = std::vector<KeptValue>;

// The values behind the reader's problems that can be kept: those at a path
// that exists in `file` and whose problem is about the value itself.
KeptValues keptValues(const json::Value& file, const Problems& readProblems);

// True when the reader's problem is one keptValues would keep.
bool keepsValue(const Problem& problem);

// Where each unit's module is in plan.units (the first, as the reader does):
// built once per plan, so that finding kept values costs O(1) each, not O(units).
using UnitIndex = std::unordered_map<std::string, std::size_t>;
UnitIndex unitIndex(const Plan& plan);

// The value's path in the plan of `units` now, or nothing when its unit is gone.
std::optional<JsonPath> currentPath(const KeptValue& kept, const UnitIndex& units);

// The value at `path`, or nullptr.
const json::Value* valueAt(const json::Value& root, const JsonPath& path);

// The values still kept after a change from `before` to `after`: a value is
// dropped when its unit is gone or the plan's value at its path changed (the
// person set the field), and when its current path is in `settled`.
KeptValues keptAfter(const KeptValues& kept, const Plan& before, const Plan& after,
                     const std::vector<JsonPath>& settled = {});

// `planJson` (planToJson(plan)) with each kept value written back where it was.
json::Value withKeptValues(json::Value planJson, const KeptValues& kept, const Plan& plan);

} // namespace sb::gui
