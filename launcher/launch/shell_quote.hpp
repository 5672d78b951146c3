// Strict POSIX shell quoting for commands run on remote hosts. Every
// argument is single-quoted; an embedded single quote becomes '\'' . Inside
// single quotes a POSIX shell interprets nothing ($, `, \, ;, newline...),
// so no user text is ever executed. Arguments are bytes (UTF-8 on the wire).
#pragma once

#include "status/qt_status.hpp"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

namespace sb::launch {

QByteArray shellQuote(const QByteArray& arg);

// The arguments quoted and joined by spaces. A NUL byte cannot be passed in
// an argument at all: an error.
Result<QByteArray> shellCommand(const QByteArrayList& argv);

// `env NAME=VALUE` arguments for environment variables; names are checked
// (letters, digits, underscore, not starting with a digit).
bool isValidEnvName(const QByteArray& name);

} // namespace sb::launch
