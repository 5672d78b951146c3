#include "format.hpp"

#include "plan/plan.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace sb::gui {

namespace {
struct Format {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::Format)
};
} // namespace

double toGiB(std::uint64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kGiB); }

QString formatGiB(double gib, int decimals)
{
    return Format::tr("%1 GiB").arg(QLocale().toString(gib, 'f', decimals));
}

QString formatBytes(std::uint64_t bytes)
{
    double v = static_cast<double>(bytes);
    int unit = 0;
    while (v >= 1024.0 && unit < 4) {
        v /= 1024.0;
        ++unit;
    }
    const QString n = unit == 0 ? QLocale().toString(static_cast<qulonglong>(bytes)) : QLocale().toString(v, 'f', 2);
    switch (unit) {
    case 0: return Format::tr("%1 B").arg(n);
    case 1: return Format::tr("%1 KiB").arg(n);
    case 2: return Format::tr("%1 MiB").arg(n);
    case 3: return Format::tr("%1 GiB").arg(n);
    default: return Format::tr("%1 TiB").arg(n);
    }
}

QString formatCount(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

QString formatShape(const std::vector<std::int64_t>& shape)
{
    if (shape.empty()) return Format::tr("scalar");
    QStringList dims;
    for (std::int64_t d : shape) dims << QString::number(d);
    return dims.join(QStringLiteral(" × "));
}

} // namespace sb::gui
