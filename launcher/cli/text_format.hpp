// Numbers for people: bytes, rates, durations, timestamps.
#pragma once

#include <QString>

namespace sb::cli {

QString humanBytes(qint64 bytes);      // "1.5 GiB", "-" for unknown (< 0)
QString humanRate(double perSecond);   // "12.3k", "1.20M"
QString humanDuration(double seconds); // "45.2 s", "3 min 05 s", "2 h 01 min"
QString localTime(double unixSeconds); // "2025-01-02 03:04:05", "-" for NaN
QString number(double v, int precision = 4); // "-" for NaN

} // namespace sb::cli
