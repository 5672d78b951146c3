// Events printed by shardbench-core (docs/protocol.md, version 1) in typed
// form, read from the core's own parse (protocol/events.hpp). Readers
// ignore unknown fields; a field that is absent reads as NaN (numbers) or -1
// (counts and byte sizes), which the store keeps as NULL.
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

struct CheckpointReport {
    int rank = -1;
    double t = 0;
    int step = 0;
    QString path;
    qint64 bytes = -1;
    double ms = 0;
    QString kind;      // sharded | full
    QString status;    // complete | failed
    QString message;
    QString checksum;  // optional extension field
    bool complete() const { return status == QLatin1String("complete"); }
};

struct DoneReport {
    int rank = -1;
    QString status;    // ok | failed
    int steps = 0;
    double finalLoss = 0;
    qint64 peakBytes = -1;
};

struct HelloReport {
    int rank = -1;
    QString host;
    qint64 pid = -1;
    QString device;
    QString torch;
    QString coreVersion;
    int world = 0;
    int localRank = -1;
    int localWorld = 0;
    int threads = 0;
};

std::optional<StepMetrics> stepFromEvent(const CoreEvent& e);
std::optional<CheckpointReport> checkpointFromEvent(const CoreEvent& e);
std::optional<DoneReport> doneFromEvent(const CoreEvent& e);
std::optional<HelloReport> helloFromEvent(const CoreEvent& e);
// `message` of an error event, with `where` appended when present.
QString errorText(const CoreEvent& e);

} // namespace sb::protocol
