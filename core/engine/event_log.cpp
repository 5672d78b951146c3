#include "event_log.hpp"

#include <cmath>

#include "estimate/estimate_report.hpp"

#include <cstdio>

namespace sb::engine {

namespace {

std::string number(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string bytes(long long b) { return b >= 0 ? formatBytes(static_cast<std::uint64_t>(b)) : std::string("?"); }

} // namespace

std::optional<std::string> logLine(const protocol::Hello& e)
{
    return "started on " + e.host + " (pid " + std::to_string(e.pid) + "): " + e.device + ", LibTorch " + e.torch + ", shardbench-core " +
           e.coreVersion + "; rank " + std::to_string(e.localRank) + " of " + std::to_string(e.localWorld) + " on this node, world " +
           std::to_string(e.world) + ", " + std::to_string(e.threads) + " thread(s), rendezvous " + e.master + " (" + e.env + ")";
}

std::optional<std::string> logLine(const protocol::PlanEvent& e)
{
    return "plan: " + std::to_string(e.units.size()) + " shard unit(s), " + std::to_string(e.paramsTotal) + " parameters, " +
           (e.sharded ? "sharded over " + std::to_string(e.shardSize) + " rank(s)" : std::string("unsharded")) + " x " +
           std::to_string(e.replicate) + " replica(s)" +
           (!e.collectives ? std::string()
            : *e.collectives == "shm" ? std::string(", collectives through shared memory")
                                      : ", collectives over " + *e.collectives);
}

std::optional<std::string> logLine(const protocol::Step& e)
{
    const bool evaluated = !std::isnan(e.evalLoss);
    if (e.step != 1 && e.step != e.steps && e.step % kLogEverySteps != 0 && !evaluated) return std::nullopt;
    return "step " + std::to_string(e.step) + "/" + std::to_string(e.steps) + "  loss " + number("%.5f", e.loss) +
           (evaluated ? "  val loss " + number("%.5f", e.evalLoss) + " (ppl " + number("%.4g", e.evalPerplexity) + ")" : std::string()) +
           "  lr " + number("%.3g", e.lr) + "  grad norm " + number("%.4g", e.gradNorm) + "  " + number("%.1f", e.stepMs) +
           " ms/step  " + number("%.0f", e.tokensPerS) + " tokens/s  peak " + bytes(e.memPeak);
}

std::optional<std::string> logLine(const protocol::CheckpointEvent& e)
{
    std::string line = "checkpoint of step " + std::to_string(e.step) + " " + e.status + ": " + e.path;
    if (e.bytes) line += ", " + bytes(*e.bytes);
    if (e.ms) line += " in " + number("%.0f", *e.ms) + " ms";
    if (e.message) line += " (" + *e.message + ")";
    return line;
}

std::optional<std::string> logLine(const protocol::Done& e)
{
    std::string line = "done: " + e.status;
    if (e.steps) line += ", " + std::to_string(*e.steps) + " steps";
    if (e.finalLoss) line += ", final loss " + number("%.5f", *e.finalLoss);
    if (e.peakBytes) line += ", peak " + bytes(*e.peakBytes);
    return line;
}

} // namespace sb::engine
