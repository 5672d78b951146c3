// A child's stdout read as it comes and never more than a limit: a core that
// prints without end (broken, or not shardbench-core at all) is stopped, not
// buffered until the launcher runs out of memory.
#pragma once

#include <QByteArray>
#include <QProcess>

#include <atomic>

namespace sb::launch {

struct BoundedOutput {
    enum Outcome { Finished, TooLong, TimedOut, Cancelled };
    Outcome outcome = Finished;
    QByteArray out; // at most the limit
};

// Waits for the started process `p` to finish, reading its stdout as it
// comes; kills it once it has printed more than `maxBytes`, run past
// `timeoutMs` or `cancel` is set. Its stderr must go elsewhere (a file, the
// null device): QProcess would buffer it without a limit.
BoundedOutput readBoundedOutput(QProcess& p, qsizetype maxBytes, int timeoutMs, const std::atomic<bool>* cancel = nullptr);

// "64 KiB", "1 MiB": a limit as messages name it.
QString byteLimitText(qsizetype bytes);

} // namespace sb::launch
