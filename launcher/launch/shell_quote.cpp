#include "shell_quote.hpp"

namespace sb::launch {

QByteArray shellQuote(const QByteArray& arg)
{
    QByteArray out;
    out.reserve(arg.size() + 2);
    out.append('\'');
    for (char c : arg) {
        if (c == '\'') out.append("'\\''");
        else out.append(c);
    }
    out.append('\'');
    return out;
}

QByteArray shellCommand(const QByteArrayList& argv, QString* error)
{
    QByteArray out;
    for (const QByteArray& a : argv) {
        if (a.contains('\0')) {
            if (error) *error = QStringLiteral("an argument contains a NUL byte, which no command line can carry");
            return {};
        }
        if (!out.isEmpty()) out.append(' ');
        out.append(shellQuote(a));
    }
    return out;
}

bool isValidEnvName(const QByteArray& name)
{
    if (name.isEmpty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

} // namespace sb::launch
