// Text a user typed, made safe to print in one line of a message:
// control characters become escapes (\n, \t, \x1b).
#pragma once

#include <QString>

namespace sb::launch {

QString printable(const QString& text);
// "a newline", "'$'", "a space": for "X contains ..." messages.
QString describeChar(QChar c);

} // namespace sb::launch
