// Which rank's exit caused an attempt to fail. When one rank dies its peers
// fail too ("a peer vanished"), often within milliseconds and sometimes
// reported first, so the first exit seen is not always the cause. Exits are
// ranked: a rank that could not start, was lost or was killed by a signal
// we did not send comes before one that reported bad input or a failed
// rendezvous, which comes before a plain runtime failure; ties go to the
// earliest. Exits caused by our own stop are never the cause (a backend
// marks the ones it knows, as Slurm's srun signals tasks on our behalf).
#pragma once

#include "backend.hpp"
#include "plan/failure_reason.hpp"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sb::store {
struct RunRow;
}

namespace sb::launch {

struct ObservedExit {
    RankExit exit;
    QString host;
    qint64 order = 0;           // arrival order
    qint64 msSinceStop = -1;    // -1: before any stop was requested
    QString lastError;          // the rank's last `error` event, if any
};

// Lower is more likely the cause; -1: not a cause at all.
int causePriority(const ObservedExit& e, int graceMs, bool killRequested);
std::optional<ObservedExit> rootCause(const QList<ObservedExit>& exits, int graceMs, bool killRequested);
// "rank 3 on node-b was killed by signal 9 (SIGKILL)" (+ ": <last error>")
QString failureReason(const ObservedExit& e);

// A reason as the store keeps it: the English sentence, and the failure
// catalogue's code and arguments when it has one ("" and none otherwise).
struct CodedReason {
    QString text;       // English, with " (after N restarts)" when restarts > 0
    QString code;
    QStringList args;
    int restarts = 0;   // a failed run's restarts before it gave up: a reader words them itself

    bool isEmpty() const { return text.isEmpty(); }
};
CodedReason codedReason(const FailureReason& r);
// A reason as the store read it back: a failed run's restarts for its suffix.
CodedReason storedReason(const store::RunRow& run);
// Puts a reason into a record that keeps one (a store::RunUpdate, an
// AttemptRecord, a RunOutcome): its English, code and arguments.
template <typename Record>
void recordReason(Record& record, const CodedReason& reason)
{
    record.reason = reason.text;
    record.reasonCode = reason.code;
    record.reasonArgs = reason.args;
}
// The exit's reason with its code; text only when the exit has no host or
// is a success (not a failure the catalogue words).
CodedReason failureReasonCoded(const ObservedExit& e);

} // namespace sb::launch
