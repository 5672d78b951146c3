// libFuzzer target: the JSON reader, the plan reader, validation and, for a
// plan that validates, the memory estimator and the writer. Beyond "no crash,
// no leak, no undefined behaviour" it checks that a parsed document writes
// back to the same value, and that a valid plan writes and reads back to itself.
#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// Validation bounds every size, but a 100 000-layer model legitimately takes
// seconds to build; past this the harness reads the plan but does not build it.
constexpr std::int64_t kMaxLayers = 2000;

void check(bool ok)
{
    if (!ok) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const sb::json::ParseResult parsed = sb::json::parse(text);
    if (parsed)
        for (int indent : {-1, 2}) {
            const sb::json::ParseResult again = sb::json::parse(parsed.value->dump(indent));
            check(again && *again.value == *parsed.value);
        }
    else
        check(parsed.error.line >= 1 && parsed.error.column >= 1 && !parsed.error.message.empty());

    sb::PlanReadResult read = sb::planFromString(text);
    if (read.plan.model.nLayers > kMaxLayers) return 0;
    const sb::LoadedPlan lp = sb::validateLoaded(std::move(read));
    check(lp.tree != nullptr);
    if (!lp.ok()) return 0;
    // validate accepted it: the estimator's byte counts must not overflow (UBSan watches).
    const sb::Estimate e = sb::estimateMemory(lp.plan, *lp.tree);
    check(e.ranks.size() == static_cast<std::size_t>(lp.plan.mesh.worldSize()));
    const std::string written = sb::planToString(lp.plan);
    const sb::PlanReadResult back = sb::planFromString(written);
    check(back.ok() && sb::planToString(back.plan) == written);
    return 0;
}
