// A step event read in one pass, without building a JSON document: the
// ingest path of a detached run's catch-up, where step lines are nearly all
// of the bytes. It reads flat objects of numbers, plain strings and nulls;
// for anything else (nesting, escapes, true/false, a repeated key, invalid
// JSON) it declines and the caller takes the general path
// (parseEventBody + stepFromEvent), whose result it matches field for field.
#pragma once

#include "core_event.hpp"

#include <QByteArrayView>

#include <optional>

namespace sb::protocol {

// The step of a `{"type":"step",...}` line (without the `@sb ` prefix), or
// nullopt: not a step event, or not one this reader takes.
std::optional<StepMetrics> parseFlatStep(QByteArrayView body);

} // namespace sb::protocol
