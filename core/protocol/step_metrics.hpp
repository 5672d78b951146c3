#pragma once
// The one table of a step's metrics: name on the wire and in the store, unit,
// integer or not, and the Step member that holds it. The engine's step line,
// the launcher's reader, the store's step_metrics columns and binds, the run
// reader and the CLI's CSV all iterate it: a metric added here reaches them all.

#include "events.hpp"

#include <cstdint>
#include <vector>

namespace sb::protocol {

struct StepMetric {
    const char* name; // JSON key and store column
    const char* unit; // "", "ms", "bytes", "tokens/s"...
    bool integer;
    double Step::*real = nullptr;         // set when !integer
    std::int64_t Step::*whole = nullptr;  // set when integer

    double value(const Step& s) const { return integer ? static_cast<double>(s.*whole) : s.*real; }
    void set(Step& s, const json::Value& v) const
    {
        if (integer) s.*whole = v.asInt();
        else s.*real = v.asDouble();
    }
};

// Every numeric field of a step line except "step" (the row's key) and "steps"
// (the planned total).
const std::vector<StepMetric>& stepMetrics();
// nullptr when `name` is not a step metric.
const StepMetric* findStepMetric(std::string_view name);

} // namespace sb::protocol
