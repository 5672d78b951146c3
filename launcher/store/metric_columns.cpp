#include "metric_columns.hpp"

namespace sb::store {

const std::vector<MetricInfo>& metricInfos()
{
    static const std::vector<MetricInfo> infos = [] {
        std::vector<MetricInfo> out;
        int i = 0;
        for (const protocol::StepField& f : protocol::stepFields())
            out.push_back({static_cast<Metric>(i++), f.name(), f.integer(), f.metric->unit, &f});
        return out;
    }();
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

std::string metricColumnList()
{
    std::string out;
    for (const MetricInfo& i : metricInfos()) {
        if (!out.empty()) out += ", ";
        out += i.column;
    }
    return out;
}

} // namespace sb::store
