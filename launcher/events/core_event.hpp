// Events printed by shardbench-core (docs/protocol.md, version 1) as the
// launcher holds them: the envelope in Qt types and the body as the core's
// JSON, read into the core's own typed events (protocol/events.hpp). Readers
// ignore unknown fields. A step becomes a StepMetrics, the store's step row,
// where an absent field reads as NaN (numbers) or -1 (counts and byte
// sizes), which the store keeps as NULL.
#pragma once

#include "protocol/events.hpp"

#include <QString>

#include <optional>

namespace sb::protocol {

// The major version this reader understands (core/protocol/events.hpp).
inline constexpr int kProtocolVersion = kVersion;

struct CoreEvent {
    QString type;
    int version = 0;
    int rank = -1;
    double t = 0;          // unix seconds
    QString runId;
    json::Value body;      // the whole object, unknown fields included
};

// A step as the store keeps it: the core's Step (protocol/step_metrics.hpp
// lists its metrics) with where it came from, and absent fields told apart.
struct StepMetrics {
    int rank = -1;
    int attempt = 0;       // set by the supervisor, not by the core
    int step = 0;
    int steps = 0;
    double t = 0;
    double loss = 0, lr = 0, gradNorm = 0;
    qint64 tokens = -1;
    double tokensPerS = 0, stepMs = 0, forwardMs = 0, backwardMs = 0, optimizerMs = 0, commExposedMs = 0;
    qint64 memCurrent = -1, memPeak = -1, memReserved = -1, deviceMemUsed = -1;
    double evalLoss = std::numeric_limits<double>::quiet_NaN(), evalPerplexity = std::numeric_limits<double>::quiet_NaN();
};

std::optional<StepMetrics> stepFromEvent(const CoreEvent& e);

// The core's typed event T (protocol/events.hpp: Hello, Done, Error...) when
// `e` is one; fields absent from the line read as T::fromJson says.
template <class T>
std::optional<T> eventAs(const CoreEvent& e)
{
    if (e.type != QLatin1String(T::kType)) return std::nullopt;
    return T::fromJson(e.body);
}
// A checkpoint event that names its path (one without names nothing to restore).
std::optional<CheckpointEvent> checkpointFromEvent(const CoreEvent& e);
inline bool isComplete(const CheckpointEvent& c) { return c.status == "complete"; }
// `message` of an error event, with `where` appended when present.
QString errorText(const CoreEvent& e);

} // namespace sb::protocol
