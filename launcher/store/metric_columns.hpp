// The per-rank step metrics by name: protocol field name = column name.
// The list is the core's one metric table (core/protocol/step_metrics.hpp)
// through protocol::stepFields(); readers select columns only through it,
// never from user text. Metric names the entries the code refers to.
#pragma once

#include "events/step_fields.hpp"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace sb::store {

// A metric in code: the core's identifier of its row (its index in the table).
using Metric = protocol::MetricId;

struct MetricInfo {
    Metric metric;
    const char* column;  // also the field name of the step event
    bool integer;        // counts and bytes
    const char* unit;
    const protocol::StepField* field;  // its StepMetrics member
};

const std::vector<MetricInfo>& metricInfos();
const MetricInfo& metricInfo(Metric m);
std::optional<Metric> parseMetric(const QString& name);
// "loss, lr, ..." : every metric column, in metricInfos() order, for SQL.
std::string metricColumnList();

} // namespace sb::store
