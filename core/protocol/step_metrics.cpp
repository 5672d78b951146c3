#include "step_metrics.hpp"

namespace sb::protocol {

namespace {
StepMetric real(const char* name, const char* unit, double Step::*m) { return {name, unit, false, m, nullptr}; }
StepMetric whole(const char* name, const char* unit, std::int64_t Step::*m) { return {name, unit, true, nullptr, m}; }
} // namespace

const std::vector<StepMetric>& stepMetrics()
{
    static const std::vector<StepMetric> table = {
        real("loss", "", &Step::loss),
        real("lr", "", &Step::lr),
        real("grad_norm", "", &Step::gradNorm),
        whole("tokens", "tokens", &Step::tokens),
        real("tokens_per_s", "tokens/s", &Step::tokensPerS),
        real("step_ms", "ms", &Step::stepMs),
        real("forward_ms", "ms", &Step::forwardMs),
        real("backward_ms", "ms", &Step::backwardMs),
        real("optimizer_ms", "ms", &Step::optimizerMs),
        real("comm_exposed_ms", "ms", &Step::commExposedMs),
        whole("mem_current", "bytes", &Step::memCurrent),
        whole("mem_peak", "bytes", &Step::memPeak),
        whole("mem_reserved", "bytes", &Step::memReserved),
        whole("device_mem_used", "bytes", &Step::deviceMemUsed),
    };
    return table;
}

const StepMetric* findStepMetric(std::string_view name)
{
    for (const StepMetric& m : stepMetrics())
        if (name == m.name) return &m;
    return nullptr;
}

} // namespace sb::protocol
