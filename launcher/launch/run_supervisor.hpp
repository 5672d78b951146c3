// torchrun-style supervision of one run. Each attempt starts every rank
// through a backend; if any rank exits non-zero or is lost, every other rank
// is stopped (SIGTERM, SIGKILL after the grace, all gone within the stop
// deadline) and the attempt fails with the rank that caused it. With
// max_restarts left, the whole group is started again: from the newest
// checkpoint that rank 0 reported complete (--resume DIR), or from scratch.
// A cancel stops everything the same way and ends the run as cancelled. A run
// whose ranks all finished but whose checkpoints failed is completed with a
// reason saying how many failed.
//
// Everything happens in the thread the supervisor lives in, driven by the
// event loop; a GUI connects to the signals, the CLI and the run store too.
#pragma once

#include "backend.hpp"
#include "failure_analysis.hpp"
#include "metrics_sink.hpp"
#include "prepared_launch.hpp"
#include "events/core_event.hpp"
#include "store/run_status.hpp"
#include "store/store_records.hpp"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

namespace sb::launch {

struct RunOutcome {
    store::RunStatus status = store::RunStatus::Starting;
    QString reason;
    QString reasonCode;      // the reason's failure catalogue code and arguments, "" for text only
    QStringList reasonArgs;
    int failingRank = -1;
    QString failingHost;
    int restarts = 0;
    int stepsDone = 0;
    double finalLoss = store::kNoTime;
    qint64 malformedLines = 0;
    int failedCheckpoints = 0;  // a completed run with failed checkpoints says so in its reason
    double startedAt = store::kNoTime;
    double endedAt = store::kNoTime;
};

// The latest known state of one rank, for progress displays.
struct RankView {
    int rank = 0;
    QString host;
    qint64 pid = 0;
    bool running = false;
    std::optional<protocol::StepMetrics> lastStep;
};

class RunSupervisor : public QObject {
    Q_OBJECT
public:
    // Makes a fresh backend for each attempt.
    using BackendFactory = std::function<std::unique_ptr<Backend>()>;

    RunSupervisor(PreparedLaunch launch, BackendFactory factory, QObject* parent = nullptr);
    ~RunSupervisor() override;

    const PreparedLaunch& launch() const { return launch_; }
    void addMetricsSink(MetricsSink* sink) { sinks_.push_back(sink); }
    void removeMetricsSink(MetricsSink* sink) { sinks_.erase(std::remove(sinks_.begin(), sinks_.end(), sink), sinks_.end()); }

    void start();
    // Stops every rank and ends the run as cancelled.
    void cancel(const FailureReason& why = {FailureCode::CancelledByUser, {}});
    // Skips the grace of a stop in progress (a second Ctrl-C).
    void forceStop();

    bool isFinished() const { return finished_; }
    const RunOutcome& outcome() const { return outcome_; }
    int attempt() const { return attempt_; }
    QList<RankView> ranks() const;
    QString hostOfRank(int rank) const;
    // The host's name as the backend reported it (a Slurm node's), else as configured.
    QString hostName(int hostIndex) const;

Q_SIGNALS:
    void statusChanged(sb::store::RunStatus status, const sb::launch::CodedReason& reason);
    void progress(const QString& message);
    void hostReady(const sb::launch::HostInfo& info);
    void attemptStarted(int attempt, const QString& resumeDir);
    void attemptEnded(const sb::store::AttemptRecord& record);
    void rankStarted(int attempt, int rank, qint64 pid);
    void rankExited(int attempt, const sb::launch::RankExit& exit);
    void eventReceived(int attempt, const sb::protocol::CoreEvent& event);
    void stepReported(const sb::protocol::StepMetrics& step);
    void checkpointReported(int attempt, int rank, const sb::protocol::CheckpointEvent& checkpoint);
    void outputLine(int attempt, int rank, sb::launch::OutputStream stream, const QString& line);
    void malformedLine(int attempt, int rank, const QString& error, const QString& line);
    void finished(const sb::launch::RunOutcome& outcome);

private:
    void startAttempt();
    void onRankOutput(int rank, OutputStream stream, const QByteArray& line, bool truncated);
    void onEvent(int rank, protocol::CoreEvent event);
    void onRankExited(const RankExit& exit);
    void onLaunchFailed(const QString& message, int hostIndex);
    void onBackendFinished();
    void stopAttempt();
    void finish(store::RunStatus status, const CodedReason& reason);
    void setStatus(store::RunStatus status, const CodedReason& reason = {});
    static double now();

    PreparedLaunch launch_;
    BackendFactory factory_;
    std::unique_ptr<Backend> backend_;
    std::vector<MetricsSink*> sinks_;
    QTimer restartTimer_;

    RunOutcome outcome_;
    store::RunStatus status_ = store::RunStatus::Starting;
    int attempt_ = -1;
    bool finished_ = false;
    bool cancelled_ = false;
    CodedReason cancelReason_;

    // The current attempt.
    QString resumeDir_;
    double attemptStartedAt_ = 0;
    bool stopping_ = false;
    bool killRequested_ = false;
    QElapsedTimer sinceStop_;
    QString launchError_;
    int launchErrorHost_ = -1;
    QList<ObservedExit> exits_;
    qint64 exitOrder_ = 0;
    QHash<int, RankView> rankViews_;
    QHash<int, QString> hostNames_;   // host index -> the name a backend learnt (Slurm nodes)
    QHash<int, QString> lastErrors_;  // rank -> its last error event
    QHash<int, QString> lastStderr_;  // rank -> its last stderr line
    int exitedRanks_ = 0;
    int succeededRanks_ = 0;
    int startedRanks_ = 0;

    // Across attempts.
    struct Checkpoint {
        int step = 0;
        QString path;
    };
    std::optional<Checkpoint> latestCheckpoint_; // complete, as reported by rank 0
    std::optional<double> rank0FinalLoss_;
    QSet<QPair<int, int>> failedCheckpoints_; // (attempt, step)
    QString firstCheckpointFailure_;
};

} // namespace sb::launch

Q_DECLARE_METATYPE(sb::launch::RunOutcome)
