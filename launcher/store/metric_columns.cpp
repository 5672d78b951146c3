#include "metric_columns.hpp"

namespace sb::store {

const std::vector<MetricInfo>& metricInfos()
{
    static const std::vector<MetricInfo> infos = {
        {Metric::Loss, "loss", false},
        {Metric::Lr, "lr", false},
        {Metric::GradNorm, "grad_norm", false},
        {Metric::Tokens, "tokens", true},
        {Metric::TokensPerS, "tokens_per_s", false},
        {Metric::StepMs, "step_ms", false},
        {Metric::ForwardMs, "forward_ms", false},
        {Metric::BackwardMs, "backward_ms", false},
        {Metric::OptimizerMs, "optimizer_ms", false},
        {Metric::CommExposedMs, "comm_exposed_ms", false},
        {Metric::MemCurrent, "mem_current", true},
        {Metric::MemPeak, "mem_peak", true},
        {Metric::MemReserved, "mem_reserved", true},
        {Metric::DeviceMemUsed, "device_mem_used", true},
    };
    return infos;
}

const MetricInfo& metricInfo(Metric m)
{
    for (const MetricInfo& i : metricInfos())
        if (i.metric == m) return i;
    return metricInfos().front();
}

std::optional<Metric> parseMetric(const QString& name)
{
    for (const MetricInfo& i : metricInfos())
        if (name == QLatin1String(i.column)) return i.metric;
    return std::nullopt;
}

} // namespace sb::store
