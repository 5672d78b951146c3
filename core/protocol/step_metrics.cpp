#include "step_metrics.hpp"

namespace sb::protocol {

const std::vector<StepMetric>& stepMetrics()
{
#define SB_STEP_METRIC_real(member) false, &Step::member, nullptr
#define SB_STEP_METRIC_whole(member) true, nullptr, &Step::member
#define SB_STEP_METRIC_ROW(id, name, unit, kind, member) {MetricId::id, name, unit, SB_STEP_METRIC_##kind(member)},
    static const std::vector<StepMetric> table = {SB_STEP_METRICS(SB_STEP_METRIC_ROW)};
#undef SB_STEP_METRIC_ROW
#undef SB_STEP_METRIC_whole
#undef SB_STEP_METRIC_real
    return table;
}

const StepMetric* findStepMetric(std::string_view name)
{
    for (const StepMetric& m : stepMetrics())
        if (name == m.name) return &m;
    return nullptr;
}

} // namespace sb::protocol
