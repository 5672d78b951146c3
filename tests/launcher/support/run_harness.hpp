// Runs one supervised, recorded run inside a test: prepares it, wires a
// backend, the supervisor and the recorder to a store file, and keeps what
// the supervisor reported for the test to check.
#pragma once

#include "launch/backend.hpp"
#include "launch/run_config.hpp"
#include "launch/run_recorder.hpp"
#include "launch/run_supervisor.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QStringList>

#include <memory>
#include <optional>

namespace sb::test {

class SshdFixture;

// An SSH run of `plan` on the first `hosts` hosts of `sshd` (2 ranks each),
// the core of this build on each, run folders under `remoteDir`, one thread a rank.
launch::RunConfig sshRunConfig(const QString& plan, const SshdFixture& sshd, int hosts, const QString& remoteDir);

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
    // The recorder's storage problem, if any ("" when every row was stored).
    QString recorderError() const { return recorder_ ? recorder_->error() : QString(); }
    QString dbPath() const { return dbPath_; }
    bool finished() const { return finished_; }
    qint64 msSince(const QElapsedTimer& t) const { return t.elapsed(); }
    // The highest step every rank has reported in the current attempt.
    int minStepOfAllRanks() const;
    // Once every rank reported `minSteps` steps, calls `stop` ("" or what went
    // wrong) and waits until the run finished; sets msFromStopToFinish.
    // "" or what went wrong.
    QString stopWhenTraining(int minSteps, const std::function<QString()>& stop, int trainTimeoutMs = 60000,
                             int finishTimeoutMs = 20000);
    // The same, the stop being SIGKILL to `rank`'s process (its pid as the backend reported it).
    QString killRankWhenTraining(int rank, int minSteps, int trainTimeoutMs = 60000, int finishTimeoutMs = 20000);
    // "" when the run failed because `rank` was killed by SIGKILL (the
    // reason naming it), else why not.
    QString blamesKilledRank(int rank) const;
    // Closes the store (flushes it) so that readers see everything.
    void closeStore();
    // Closes the store and opens a reader of what it holds.
    Result<std::unique_ptr<store::RunReader>> closeAndOpenReader();
    // Closes the store and reads the run's row back; nullopt when it cannot.
    std::optional<store::RunRow> closeAndReadRun();

    QHash<int, qint64> pids;                  // rank -> pid, current attempt
    QList<protocol::StepMetrics> steps;
    QList<launch::RankExit> exits;
    QStringList progress;
    QStringList errors;                      // error events
    QElapsedTimer clock;                     // started by start()
    qint64 finishedAtMs = -1;
    qint64 msFromStopToFinish = -1;

private:
    QString dbPath_;
    std::unique_ptr<store::SqliteRunStore> store_;
    std::unique_ptr<launch::RunSupervisor> supervisor_;
    std::unique_ptr<launch::RunRecorder> recorder_;
    bool finished_ = false;
};

} // namespace sb::test
