#include "clock_ticks.hpp"

#include <QDateTime>
#include <QRegularExpression>

#include <cmath>

namespace sb::gui {

namespace {
constexpr double kMinute = 60, kHour = 3600, kDay = 86400;
} // namespace

double clockTickStep(double span, int most)
{
    static const double steps[] = {1,         2,         5,         10,        15,       30,       kMinute,  2 * kMinute, 5 * kMinute,
                                   10 * kMinute, 15 * kMinute, 30 * kMinute, kHour, 2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour,
                                   kDay,      2 * kDay,  7 * kDay,  14 * kDay, 28 * kDay};
    if (!(span > 0) || !std::isfinite(span) || most < 1) return 1;
    for (double s : steps)
        if (span / s <= most) return s;
    return std::ceil(span / most / (28 * kDay)) * 28 * kDay;
}

std::vector<ClockTick> clockTicks(double origin, double x0, double x1, const QLocale& locale, int most)
{
    std::vector<ClockTick> out;
    if (!(x1 >= x0) || !std::isfinite(origin)) return out;
    const double step = clockTickStep(x1 - x0, most);
    // Round in local time: an hourly tick falls on the hour, a daily one at midnight.
    const double offset = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(origin + x0)).offsetFromUtc();
    const double first = std::ceil((origin + x0 + offset) / step) * step - offset;
    const bool acrossDays = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(origin + x0)).date() !=
                            QDateTime::fromSecsSinceEpoch(static_cast<qint64>(origin + x1)).date();
    // Seconds only where ticks are seconds apart (the long format would add a zone name).
    // (minutes apart: the language's short time, without seconds where it has them).
    const QString time = step < kMinute ? QStringLiteral("HH:mm:ss")
                                        : locale.timeFormat(QLocale::ShortFormat).remove(QRegularExpression(QStringLiteral("[:.]ss?")));
    for (double t = first; t <= origin + x1 + 1e-6 && out.size() < static_cast<std::size_t>(4 * most); t += step) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(t * 1000)));
        const QString label = step >= kDay ? locale.toString(at.date(), QLocale::ShortFormat)
                              : acrossDays ? locale.toString(at.date(), QStringLiteral("ddd")) + QLatin1Char(' ') + locale.toString(at.time(), time)
                                           : locale.toString(at.time(), time);
        bool seen = false;
        for (const ClockTick& c : out) seen = seen || c.label == label;
        if (!seen) out.push_back({t - origin, label});
    }
    return out;
}

QString clockText(double unixSeconds, const QLocale& locale)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000)));
    return locale.toString(at.date(), QLocale::ShortFormat) + QLatin1Char(' ') + locale.toString(at.time(), QStringLiteral("HH:mm:ss"));
}

} // namespace sb::gui
