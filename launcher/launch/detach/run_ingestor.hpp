// Turns the follower's records into run-store rows, exactly once: every row
// taken from a run-directory line carries that line's key ("FILE:OFFSET"),
// so a line fetched again after a reconnect is not stored twice, and the
// offsets reached are recorded for the next client to resume from. The
// supervisor's state becomes the run's row and its attempts.
//
// A file's offset only moves over lines received in order (catch-up): a line
// sent live ahead of them (another rank's essential event while following)
// is stored at once and skipped when the catch-up sends it again, so the
// steps a live follower left out are fetched later, and none twice.
//
// Nothing the stream says is taken on trust: a line record whose offset does
// not continue the file's stored offset, or whose span is longer than its
// text, is refused (counted, said once per file), never stored; a record for
// a file outside the run directory's layout is malformed. A state of a newer
// version than this build reads ends the session with a message (error()).
// Files the follower refused (links, FIFOs) and events of a newer protocol
// version are said (notice()) and recorded in the run's launcher log.
#pragma once

#include "../failure_analysis.hpp"
#include "../run_rows.hpp"
#include "events/core_event.hpp"
#include "protocol/follow_records.hpp"
#include "protocol/run_state.hpp"
#include "store/run_reader.hpp"
#include "store/run_store.hpp"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QSet>

#include <cmath>
#include <string_view>
#include <vector>

namespace sb::launch {

class RunIngestor final : public QObject {
    Q_OBJECT
public:
    // `stored...`: what the store already holds per (attempt, rank), for the caps.
    RunIngestor(store::RunStore& store, qint64 runId, QHash<QString, qint64> offsets,
                QHash<QPair<int, int>, int> storedLogLines, QHash<QPair<int, int>, qint64> storedEventBytes = {},
                RecorderOptions caps = {});

    // The run as the store holds it before this client. A run that never wrote
    // a state keeps its recorded end (a failed launch keeps its precise reason),
    // its steps count as done, its directory names state.json in messages.
    void setStoredRun(const store::RunRow& row);
    // Where the supervisor runs, for a reason when its state does not say.
    void setSupervisorPlace(const QString& place) { place_ = place; }

    // One follower record (either wire). Malformed records are counted and skipped.
    void take(QByteArrayView record);
    void take(const QList<QByteArray>& records);
    // Queues the offsets reached since the last call.
    void saveOffsets();

    // How far each file is stored without a gap (file -> next byte).
    QHash<QString, qint64> offsets() const;
    bool endReached() const { return ended_; }
    bool supervisorAlive() const { return alive_; }
    store::RunStatus status() const { return status_; }
    QString reason() const { return reason_.text; } // English
    const CodedReason& codedReason() const { return reason_; }
    const protocol::RunState& state() const { return state_; }
    qint64 malformed() const { return malformed_; }
    // Line records refused for offsets that do not continue what is stored.
    qint64 inconsistent() const { return inconsistent_; }
    // Event lines of a newer protocol version than this build reads: not stored.
    qint64 newerVersionEvents() const { return newerVersion_; }
    // The steps done: the newest of the state's, the newest step line seen
    // (rank 0) and what the store had (a dead supervisor's last state lags).
    int stepsDone() const;
    // When the supervisor was last heard from (its state, its lines), Unix seconds; 0 unknown.
    double lastHeardAt() const { return lastHeardAt_; }
    // What the follower could not do (no run directory, a FIFO for its lock),
    // or a state this build cannot read: retrying cannot help.
    QString followerError() const { return followerError_; }

Q_SIGNALS:
    void stateChanged(sb::store::RunStatus status, const sb::launch::CodedReason& reason, bool supervisorAlive);
    void stepReported(const sb::protocol::StepMetrics& step);
    void systemSampled(const sb::store::SystemSample& sample); // a rank's `system` event, as stored
    void logLine(int attempt, int rank, const QString& line); // rank -1: the supervisor
    void attemptChanged(int attempt);
    // A sentence for the user: a file not read, a record refused, events of a
    // newer version, a supervisor that holds its lock but is silent (stopped).
    void notice(const QString& message);

private:
    struct FileState {
        QString name;
        enum class Kind { Events, Log, Supervisor, Other } kind = Kind::Other;
        int attempt = 0, rank = -1;
        qint64 offset = 0;      // every line before it is stored
        bool dirty = false;     // offset not saved yet
        bool refusedSaid = false; // an inconsistent record was said
        QSet<qint64> aheadLive; // lines stored live, beyond `offset`
    };
    FileState& file(QByteArrayView name);
    void takeOne(QByteArrayView record);
    void handOverSteps();
    void takeJson(std::string_view record);
    void takeEnd();
    void takeState(const protocol::FollowRecord& record);
    void takeLine(FileState& f, qint64 offset, qint64 next, QByteArrayView data, bool live);
    void refuseLine(FileState& f, qint64 offset, qint64 next, const QString& why);
    void takeRefused(const QString& file, const QString& why);
    void takeAge(double age, double at);
    void launcherLine(const QString& line, const QString& src);
    void noteHeard(double t) { if (t > lastHeardAt_ && std::isfinite(t)) lastHeardAt_ = t; }
    void storeLine(FileState& f, qint64 offset, QByteArrayView data);
    void takeEvent(FileState& f, qint64 offset, QByteArrayView data);
    void takeLog(FileState& f, qint64 offset, QByteArrayView data);

    store::RunStore& store_;
    const qint64 runId_;
    QHash<QByteArray, FileState> files_;
    RunRows rows_; // the same writer and caps as a supervised run's
    std::vector<store::MetricRow> steps_; // handed to the store together, before any offset
    protocol::RunState state_;
    QHash<int, QString> hostOfRank_;
    store::RunStatus status_ = store::RunStatus::Starting;
    CodedReason reason_;
    int attempt_ = 0;
    bool alive_ = true;
    bool ended_ = false;
    qint64 malformed_ = 0;
    qint64 inconsistent_ = 0;
    qint64 newerVersion_ = 0;
    QString followerError_;
    bool stateSeen_ = false;     // a state record came
    bool storedFinal_ = false;   // the store had the run ended before this client
    int storedSteps_ = -1;
    int stepsSeen_ = -1;         // the newest step line of rank 0
    double lastHeardAt_ = 0;
    QString runDir_, place_;
    bool silentSaid_ = false;    // "not heard from" was said (and not taken back)
};

} // namespace sb::launch
