#include "metric_columns.hpp"

namespace sb::store {

const std::vector<MetricInfo>& metricInfos()
{
    static const std::vector<MetricInfo> infos = [] {
        std::vector<MetricInfo> out;
        for (const protocol::StepField& f : protocol::stepFields())
            out.push_back({f.metric->id, f.name(), f.integer(), f.metric->unit, &f});
        return out;
    }();
    return infos;
}

const MetricInfo& metricInfo(Metric m)
{
    return metricInfos()[static_cast<std::size_t>(m)];
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
