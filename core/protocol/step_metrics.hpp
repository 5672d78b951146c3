#pragma once
// The one table of a step's metrics: name on the wire and in the store, unit,
// integer or not, and the member that holds it. The engine's step line, the
// launcher's reader, the store's step_metrics columns and binds, the run
// reader and the CLI's CSV all iterate it: a metric added here reaches them
// all. The launcher expands the same rows over its own StepMetrics, whose
// members carry the same names, so one that lacks a member does not compile.

#include "events.hpp"

#include <cstdint>
#include <vector>

// X(id, name, unit, kind, member): kind is `real` (double) or `whole` (64-bit integer).
#define SB_STEP_METRICS(X) \
    X(Loss, "loss", "", real, loss) \
    X(Lr, "lr", "", real, lr) \
    X(GradNorm, "grad_norm", "", real, gradNorm) \
    X(Tokens, "tokens", "tokens", whole, tokens) \
    X(TokensPerS, "tokens_per_s", "tokens/s", real, tokensPerS) \
    X(StepMs, "step_ms", "ms", real, stepMs) \
    X(ForwardMs, "forward_ms", "ms", real, forwardMs) \
    X(BackwardMs, "backward_ms", "ms", real, backwardMs) \
    X(OptimizerMs, "optimizer_ms", "ms", real, optimizerMs) \
    X(CommExposedMs, "comm_exposed_ms", "ms", real, commExposedMs) \
    X(MemCurrent, "mem_current", "bytes", whole, memCurrent) \
    X(MemPeak, "mem_peak", "bytes", whole, memPeak) \
    X(MemReserved, "mem_reserved", "bytes", whole, memReserved) \
    X(DeviceMemUsed, "device_mem_used", "bytes", whole, deviceMemUsed) \
    X(EvalLoss, "eval_loss", "", real, evalLoss) \
    X(EvalPerplexity, "eval_perplexity", "", real, evalPerplexity)

namespace sb::protocol {

// A metric by name in code; its value is its index in stepMetrics().
enum class MetricId {
#define SB_STEP_METRIC_ID(id, name, unit, kind, member) id,
    SB_STEP_METRICS(SB_STEP_METRIC_ID)
#undef SB_STEP_METRIC_ID
};

struct StepMetric {
    MetricId id;
    const char* name; // JSON key and store column
    const char* unit; // "", "ms", "bytes", "tokens/s"...
    bool integer;
    double Step::*real = nullptr;         // set when !integer
    std::int64_t Step::*whole = nullptr;  // set when integer

    double value(const Step& s) const { return integer ? static_cast<double>(s.*whole) : s.*real; }
    void set(Step& s, const json::Value& v) const
    {
        if (integer) s.*whole = v.asInt();
        else s.*real = v.asDouble();
    }
};

// Every numeric field of a step line except "step" (the row's key) and "steps"
// (the planned total).
const std::vector<StepMetric>& stepMetrics();
// nullptr when `name` is not a step metric.
const StepMetric* findStepMetric(std::string_view name);

} // namespace sb::protocol
