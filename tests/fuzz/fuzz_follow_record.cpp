// libFuzzer target: what a follower sends and a run directory holds, as the
// launcher reads it (core/protocol): each line of the input as a follow
// record (either wire), its state through readRunState, and as a log record
// and a signal reply. Whatever reads back is written again and must read
// back the same. Qt-free.
#include "protocol/follow_records.hpp"
#include "protocol/run_dir_layout.hpp"
#include "protocol/run_state.hpp"
#include "protocol/signal_reply.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace sb::protocol;

void check(bool ok)
{
    if (!ok) std::abort();
}

void readOne(std::string_view line)
{
    if (std::optional<FollowRecord> r = parseFollowRecord(line)) {
        if (r->kind == FollowRecord::Kind::Line) {
            check(r->next > r->offset && r->offset >= 0 && !r->file.empty());
            std::string again;
            appendLineRecord(again, 1, r->file, r->offset, r->next, r->data, r->live);
            again.pop_back();
            const std::optional<FollowRecord> back = parseFollowRecord(again);
            check(back && back->offset == r->offset && back->next == r->next && back->live == r->live);
        } else if (r->kind == FollowRecord::Kind::State) {
            if (sb::Result<RunState> s = readRunState(r->state, "state.json", "update"); s.ok()) {
                const sb::Result<RunState> back = readRunState(runStateJson(s.value()), "state.json", "update");
                check(back.ok() && back.value().status == s.value().status && back.value().attempts.size() == s.value().attempts.size() &&
                      back.value().ranks.size() == s.value().ranks.size());
            }
        }
    }
    if (std::optional<LogLine> l = parseLogRecord(line)) {
        const std::optional<LogLine> back = parseLogRecord(logRecord(l->t, l->stream, l->line));
        check(back.has_value());
    }
    (void)findSignalReply(line);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::size_t at = 0;
    while (at <= bytes.size()) {
        const std::size_t end = bytes.find('\n', at);
        readOne(bytes.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
        if (end == std::string_view::npos) break;
        at = end + 1;
    }
    return 0;
}
