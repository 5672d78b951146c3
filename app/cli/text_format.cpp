#include "text_format.hpp"

#include "launch/printable.hpp"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace sb::cli {

QString humanBytes(qint64 bytes)
{
    if (bytes < 0) return QStringLiteral("-");
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes)
                  : QStringLiteral("%1 %2").arg(v, 0, 'f', v < 10 ? 2 : 1).arg(QLatin1String(units[u]));
}

QString humanRate(double v)
{
    if (std::isnan(v)) return QStringLiteral("-");
    if (v >= 1e9) return QString::number(v / 1e9, 'f', 2) + QLatin1Char('G');
    if (v >= 1e6) return QString::number(v / 1e6, 'f', 2) + QLatin1Char('M');
    if (v >= 1e3) return QString::number(v / 1e3, 'f', 1) + QLatin1Char('k');
    return QString::number(v, 'f', 1);
}

QString humanDuration(double s)
{
    if (std::isnan(s) || s < 0) return QStringLiteral("-");
    if (s < 60) return QString::number(s, 'f', 1) + QStringLiteral(" s");
    const qint64 total = static_cast<qint64>(std::llround(s));
    if (total < 3600) return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString localTime(double t)
{
    if (std::isnan(t)) return QStringLiteral("-");
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(t * 1000)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString number(double v, int precision)
{
    return std::isnan(v) ? QStringLiteral("-") : QString::number(v, 'g', precision);
}

QString terminalSafe(const QString& text)
{
    auto needsEscape = [](QChar c) {
        const char16_t u = c.unicode();
        return (u < 0x20 && u != u'\n' && u != u'\t') || (u >= 0x7f && u < 0xa0);
    };
    if (std::none_of(text.begin(), text.end(), needsEscape)) return text; // the common case: no copy
    QString out;
    out.reserve(text.size() + 16);
    qsizetype from = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (!needsEscape(text[i])) continue;
        out += QStringView(text).mid(from, i - from);
        out += launch::printable(QString(text[i]));
        from = i + 1;
    }
    out += QStringView(text).mid(from);
    return out;
}

std::string terminalSafe(const std::string& text) { return terminalSafe(QString::fromStdString(text)).toStdString(); }

} // namespace sb::cli
