// libFuzzer target: a checkpoint's index.json as the reader sees it (JSON
// reader, then CheckpointIndex::fromJson). An index it accepts must write
// back and read back to the same bytes.
#include "checkpoint/checkpoint_index.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const sb::json::ParseResult parsed = sb::json::parse(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!parsed) return 0;
    const sb::Result<sb::ckpt::CheckpointIndex> index = sb::ckpt::CheckpointIndex::fromJson(*parsed.value);
    if (!index) return 0;
    const std::string written = index.value().toJson().dump(1);
    const sb::json::ParseResult reparsed = sb::json::parse(written);
    check(static_cast<bool>(reparsed));
    const sb::Result<sb::ckpt::CheckpointIndex> again = sb::ckpt::CheckpointIndex::fromJson(*reparsed.value);
    check(again.ok());
    check(again.value().toJson().dump(1) == written);
    return 0;
}
