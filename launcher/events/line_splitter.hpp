// Cuts a byte stream (a pipe, an SSH channel) into lines. A line longer than
// the limit is cut there and flagged, so one runaway writer cannot exhaust
// memory.
#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <functional>

namespace sb::protocol {

class LineSplitter {
public:
    // `truncated` is true for a line cut at the length limit.
    using Sink = std::function<void(QByteArray line, bool truncated)>;

    explicit LineSplitter(qsizetype maxLine = 1 << 20) : maxLine_(maxLine) {}

    void feed(QByteArrayView data, const Sink& sink);
    // Emits a trailing line without newline, if any (at end of stream).
    void finish(const Sink& sink);

private:
    QByteArray pending_;
    qsizetype maxLine_;
    bool discarding_ = false; // inside the rest of a line already cut
};

} // namespace sb::protocol
