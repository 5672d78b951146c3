// Runs one supervised, recorded run inside a test: prepares it, wires a
// backend, the supervisor and the recorder to a store file, and keeps what
// the supervisor reported for the test to check.
#pragma once

#include "launch/backend.hpp"
#include "launch/run_config.hpp"
#include "launch/run_recorder.hpp"
#include "launch/run_supervisor.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/sqlite_run_store.hpp"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QStringList>

#include <memory>

namespace sb::test {

class RunHarness {
public:
    explicit RunHarness(QString dbPath);
    ~RunHarness();

    // "" or the errors. `policy` is needed for SSH runs.
    QString prepare(const launch::RunConfig& config, launch::HostKeyPolicy* policy = nullptr);
    void start();
    // Processes events until the run finished; false on timeout.
    bool waitFinished(int timeoutMs);
    // Processes events until `pred` holds; false on timeout.
    bool waitFor(const std::function<bool()>& pred, int timeoutMs);

    launch::RunSupervisor& supervisor() { return *supervisor_; }
    const launch::PreparedLaunch& launch() const { return supervisor_->launch(); }
    qint64 runId() const { return recorder_ ? recorder_->runId() : -1; }
    QString dbPath() const { return dbPath_; }
    bool finished() const { return finished_; }
    qint64 msSince(const QElapsedTimer& t) const { return t.elapsed(); }
    // The highest step every rank has reported in the current attempt.
    int minStepOfAllRanks() const;
    // Closes the store (flushes it) so that readers see everything.
    void closeStore();

    QHash<int, qint64> pids;                  // rank -> pid, current attempt
    QList<protocol::StepMetrics> steps;
    QList<launch::RankExit> exits;
    QList<protocol::CheckpointReport> checkpoints;
    QStringList progress;
    QStringList errors;                      // error events
    QElapsedTimer clock;                     // started by start()
    qint64 finishedAtMs = -1;

private:
    QString dbPath_;
    std::unique_ptr<store::SqliteRunStore> store_;
    std::unique_ptr<launch::RunSupervisor> supervisor_;
    std::unique_ptr<launch::RunRecorder> recorder_;
    bool finished_ = false;
};

} // namespace sb::test
