// Numbers for people: bytes, rates, durations, timestamps; and text from a
// cluster or the store made safe to print.
#pragma once

#include <QString>

#include <string>

namespace sb::cli {

// A std::string (UTF-8: the argument reader's, the core's) as a QString.
inline QString q(const std::string& s) { return QString::fromStdString(s); }

QString humanBytes(qint64 bytes);      // "1.5 GiB", "-" for unknown (< 0)
QString humanRate(double perSecond);   // "12.3k", "1.20M"
QString humanDuration(double seconds); // "45.2 s", "3 min 05 s", "2 h 01 min"
QString localTime(double unixSeconds); // "2025-01-02 03:04:05", "-" for NaN
QString number(double v, int precision = 4); // "-" for NaN

// Text that came from a cluster (a run directory's reasons and log lines,
// host names, checkpoint paths) or from the store (names, tags, notes), made
// safe for a terminal: control characters escaped as launch::printable()
// does (ESC becomes \x1b), so no title, clear-screen or cursor sequence
// runs. Line breaks and tabs stay. Escape once, where the text is printed.
QString terminalSafe(const QString& text);
std::string terminalSafe(const std::string& text);

} // namespace sb::cli
