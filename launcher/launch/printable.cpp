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
        else if (c.unicode() >= 0x80 && c.unicode() < 0xa0) // C1 controls: U+009B is a CSI to some terminals
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else out += c;
    }
    return out;
}

QString quotedChar(QChar c) { return QLatin1Char('\'') + printable(QString(c)) + QLatin1Char('\''); }

} // namespace sb::launch
