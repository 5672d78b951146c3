// Text a user typed, made safe to print in one line of a message:
// control characters become escapes (\n, \t, \x1b, \u009b).
#pragma once

#include <QString>

namespace sb::launch {

QString printable(const QString& text);
// "'$'", "' '", "'\n'": one character, printable, in quotes, for "X contains ..."
// messages in any language.
QString quotedChar(QChar c);

} // namespace sb::launch
