#include "bounded_output.hpp"

#include <QElapsedTimer>

namespace sb::launch {

namespace {

void stop(QProcess& p)
{
    p.kill();
    p.waitForFinished(2000);
}

// Moves what QProcess has read (at most one pipe's worth beyond the last
// call) into `out`, keeping one byte past the limit to tell "exactly at it".
bool take(QProcess& p, QByteArray& out, qsizetype maxBytes)
{
    out += p.read(maxBytes + 1 - out.size());
    return out.size() <= maxBytes;
}

} // namespace

BoundedOutput readBoundedOutput(QProcess& p, qsizetype maxBytes, int timeoutMs, const std::atomic<bool>* cancel)
{
    BoundedOutput r;
    QElapsedTimer clock;
    clock.start();
    p.setReadChannel(QProcess::StandardOutput);
    for (;;) {
        const bool ended = p.state() == QProcess::NotRunning;
        if (!take(p, r.out, maxBytes)) {
            stop(p);
            r.out.truncate(maxBytes);
            r.outcome = BoundedOutput::TooLong;
            return r;
        }
        if (ended) return r; // read after the end was seen: nothing is left behind
        if (cancel && cancel->load()) r.outcome = BoundedOutput::Cancelled;
        else if (clock.elapsed() > timeoutMs) r.outcome = BoundedOutput::TimedOut;
        if (r.outcome != BoundedOutput::Finished) {
            stop(p);
            return r;
        }
        p.waitForReadyRead(100); // new output, the end, or 100 ms
    }
}

QString byteLimitText(qsizetype bytes)
{
    if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return QStringLiteral("%1 MiB").arg(bytes >> 20);
    if (bytes >= 1024 && bytes % 1024 == 0) return QStringLiteral("%1 KiB").arg(bytes >> 10);
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace sb::launch
