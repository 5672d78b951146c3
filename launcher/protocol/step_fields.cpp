#include "step_fields.hpp"

#include <cstdlib>
#include <cstring>
#include <cstdio>

namespace sb::protocol {

namespace {
struct Member {
    const char* name;
    double StepMetrics::*real;
    qint64 StepMetrics::*count;
};
// Where each core metric lives in StepMetrics. A metric the core adds and
// this list lacks stops the launcher at its first step (and fails
// launcher_protocol), so it cannot be dropped silently.
const Member kMembers[] = {
    {"loss", &StepMetrics::loss, nullptr},
    {"lr", &StepMetrics::lr, nullptr},
    {"grad_norm", &StepMetrics::gradNorm, nullptr},
    {"tokens", nullptr, &StepMetrics::tokens},
    {"tokens_per_s", &StepMetrics::tokensPerS, nullptr},
    {"step_ms", &StepMetrics::stepMs, nullptr},
    {"forward_ms", &StepMetrics::forwardMs, nullptr},
    {"backward_ms", &StepMetrics::backwardMs, nullptr},
    {"optimizer_ms", &StepMetrics::optimizerMs, nullptr},
    {"comm_exposed_ms", &StepMetrics::commExposedMs, nullptr},
    {"mem_current", nullptr, &StepMetrics::memCurrent},
    {"mem_peak", nullptr, &StepMetrics::memPeak},
    {"mem_reserved", nullptr, &StepMetrics::memReserved},
    {"device_mem_used", nullptr, &StepMetrics::deviceMemUsed},
};

std::vector<StepField> build()
{
    std::vector<StepField> out;
    for (const StepMetric& m : stepMetrics()) {
        const Member* found = nullptr;
        for (const Member& k : kMembers)
            if (std::strcmp(k.name, m.name) == 0) found = &k;
        if (!found || (m.integer ? !found->count : !found->real)) {
            std::fprintf(stderr, "shardbench: step metric \"%s\" of core/protocol has no matching StepMetrics member\n",
                         m.name);
            std::abort();
        }
        out.push_back({&m, found->real, found->count});
    }
    return out;
}
} // namespace

const std::vector<StepField>& stepFields()
{
    static const std::vector<StepField> fields = build();
    return fields;
}

} // namespace sb::protocol
