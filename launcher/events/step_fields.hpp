// The launcher's StepMetrics next to the core's one metric table
// (core/protocol/step_metrics.hpp): each metric's name, unit and integer-ness
// come from the core; this file only says which StepMetrics member holds it.
// The step readers, the store's columns and binds, the run reader and the
// CSV iterate stepFields().
#pragma once

#include "core_event.hpp"

#include "protocol/step_metrics.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace sb::protocol {

struct StepField {
    const StepMetric* metric;               // the core's entry: name, unit, integer
    double StepMetrics::*real = nullptr;    // when !metric->integer; NaN = absent
    qint64 StepMetrics::*count = nullptr;   // when metric->integer; -1 = absent

    const char* name() const { return metric->name; }
    bool integer() const { return metric->integer; }
    bool absent(const StepMetrics& m) const { return integer() ? m.*count < 0 : std::isnan(m.*real); }
    double value(const StepMetrics& m) const
    {
        if (!integer()) return m.*real;
        return m.*count < 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(m.*count);
    }
};

// In the core table's order, one per core metric.
const std::vector<StepField>& stepFields();

} // namespace sb::protocol
