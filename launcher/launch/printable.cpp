#include "printable.hpp"

namespace sb::launch {

QString printable(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        if (c == QLatin1Char('\n')) out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t')) out += QStringLiteral("\\t");
        else if (c == QLatin1Char('\r')) out += QStringLiteral("\\r");
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else out += c;
    }
    return out;
}

QString describeChar(QChar c)
{
    if (c == QLatin1Char('\n')) return QStringLiteral("a newline");
    if (c == QLatin1Char(' ')) return QStringLiteral("a space");
    if (c == QLatin1Char('\t')) return QStringLiteral("a tab");
    if (c.unicode() < 0x20 || c.unicode() == 0x7f) return QStringLiteral("a control character");
    return QStringLiteral("'") + c + QStringLiteral("'");
}

} // namespace sb::launch
