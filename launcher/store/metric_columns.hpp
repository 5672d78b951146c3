// The per-rank step metrics by name: protocol field name = column name.
// Readers select columns only through this list, never from user text.
#pragma once

#include <QString>

#include <optional>
#include <vector>

namespace sb::store {

enum class Metric {
    Loss, Lr, GradNorm, Tokens, TokensPerS, StepMs, ForwardMs, BackwardMs, OptimizerMs, CommExposedMs,
    MemCurrent, MemPeak, MemReserved, DeviceMemUsed
};

struct MetricInfo {
    Metric metric;
    const char* column;  // also the field name of the step event
    bool integer;        // counts and bytes
};

const std::vector<MetricInfo>& metricInfos();
const MetricInfo& metricInfo(Metric m);
std::optional<Metric> parseMetric(const QString& name);

} // namespace sb::store
