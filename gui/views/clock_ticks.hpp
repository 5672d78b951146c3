// An x axis of wall-clock time: ticks at round times of day (every 10 s, 5
// min, 1 h, 1 day...) in local time, labelled in the language's format with
// as much precision as their spacing needs. The chart keeps small x values
// (seconds since an origin); ticks and labels add the origin back.
#pragma once

#include <QLocale>
#include <QString>

#include <vector>

namespace sb::gui {

struct ClockTick {
    double x = 0; // seconds since the origin
    QString label;
};

// The spacing, in seconds, of at most `most` ticks over `span` seconds.
double clockTickStep(double span, int most = 6);
// Ticks over [x0, x1] (seconds since `origin`, unix seconds), each label unique.
std::vector<ClockTick> clockTicks(double origin, double x0, double x1, const QLocale& locale, int most = 6);
// The time `unixSeconds` as a hover shows it: date and time to the second.
QString clockText(double unixSeconds, const QLocale& locale);

} // namespace sb::gui
