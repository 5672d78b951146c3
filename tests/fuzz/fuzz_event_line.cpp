// libFuzzer target: what a rank prints on stdout, as the launcher reads it:
// cut into lines (LineSplitter, fed in uneven pieces) and each line
// classified (parseOutputLine, which reads through the core's event parser).
// Links Qt Core.
#include "events/event_line.hpp"
#include "events/line_splitter.hpp"

#include <cstdint>
#include <cstdlib>

namespace {

constexpr qsizetype kMaxLine = 4096;

void check(bool ok)
{
    if (!ok) std::abort();
}

void classify(QByteArrayView line)
{
    const sb::protocol::ParsedLine p = sb::protocol::parseOutputLine(line);
    if (p.kind == sb::protocol::ParsedLine::Event) check(!p.event.type.isEmpty() && p.event.rank >= 0);
    if (p.kind == sb::protocol::ParsedLine::Malformed) check(!p.error.isEmpty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    classify(bytes); // the whole input as one line
    sb::protocol::LineSplitter splitter(kMaxLine);
    const sb::protocol::LineSplitter::Sink sink = [](QByteArray line, bool) {
        check(line.size() <= kMaxLine && !line.contains('\n'));
        classify(line);
    };
    const qsizetype third = bytes.size() / 3;
    splitter.feed(bytes.first(third), sink);
    splitter.feed(bytes.sliced(third), sink);
    splitter.finish(sink);
    return 0;
}
