// Classifies one line a rank printed on stdout: an `@sb ` event, a malformed
// event line (counted and skipped, never fatal), or plain text.
#pragma once

#include "core_event.hpp"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace sb::protocol {

inline constexpr char kEventPrefix[] = "@sb ";

struct ParsedLine {
    enum Kind { Text, Event, Malformed };
    Kind kind = Text;
    CoreEvent event;   // for Event
    QString error;     // for Malformed: why it was refused
    int newerVersion = 0; // for Malformed: the event's version when that is why (newer than kProtocolVersion)
};

ParsedLine parseOutputLine(QByteArrayView line);
// The same for an event without its prefix (a line of a run directory's events file).
ParsedLine parseEventBody(QByteArrayView body);

} // namespace sb::protocol
