#include "step_fields.hpp"

#include <cstddef>

namespace sb::protocol {

namespace {
// The core's rows (core/protocol/step_metrics.hpp) over StepMetrics' members
// of the same names: a metric the core adds without a member here does not
// compile.
std::vector<StepField> build()
{
#define SB_STEP_FIELD_real(member) &StepMetrics::member, nullptr
#define SB_STEP_FIELD_whole(member) nullptr, &StepMetrics::member
#define SB_STEP_FIELD_ROW(id, name, unit, kind, member) \
    {&stepMetrics()[static_cast<std::size_t>(MetricId::id)], SB_STEP_FIELD_##kind(member)},
    return {SB_STEP_METRICS(SB_STEP_FIELD_ROW)};
#undef SB_STEP_FIELD_ROW
#undef SB_STEP_FIELD_whole
#undef SB_STEP_FIELD_real
}
} // namespace

const std::vector<StepField>& stepFields()
{
    static const std::vector<StepField> fields = build();
    return fields;
}

} // namespace sb::protocol
