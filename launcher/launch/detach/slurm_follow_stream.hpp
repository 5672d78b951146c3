// Following a detached Slurm run: Slurm's view of the job decides where the
// follower runs and whether the run is alive (a lock on a shared file system
// says nothing across nodes).
//   queued    no follower yet: a "starting" state that says why the job waits, and beats
//   running   the follower as a step of the job on its batch node, where the
//             supervisor's lock is exact (srun --overlap, stdin and stdout forwarded)
//   ended     the follower here, once, on the shared run directory; a run whose
//             supervisor left no final state ends with the job's state (CANCELLED,
//             TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, ...) as its reason
// The records are the follower's own, so the ingestor needs nothing else.
#pragma once

#include "follow_stream.hpp"

#include "../slurm/slurm_job.hpp"
#include "protocol/run_state.hpp"


#include <atomic>
#include <memory>

namespace sb::launch {

class SlurmFollowStream final : public FollowStream {
    Q_OBJECT
public:
    explicit SlurmFollowStream(AttachTarget target, QObject* parent = nullptr);
    ~SlurmFollowStream() override; // stops and waits for its thread
    void start(const FollowRequest& request) override;
    void stop() override;

private:
    enum class Outcome { Ended, Again }; // or the error of a follower that failed
    void run(FollowRequest request);
    Result<Outcome> follow(const QStringList& argv, const FollowRequest& request, bool onJobNode);
    bool take(const QByteArray& record, bool onJobNode, bool once, bool* ended);
    void send(const QList<QByteArray>& batch); // from the worker thread, queued to the owner's
    void beatWhileWaiting(int ms);
    QByteArray finalStateRecord(const SlurmJobState& job) const;

    AttachTarget target_;
    std::unique_ptr<QThread> thread_;
    std::atomic<bool> stop_{false};
    // Worker thread only:
    QHash<QString, qint64> offsets_;  // as the records advance them, for a follower started again
    protocol::RunState lastState_; // the last the follower sent (none: a default one)
    qint64 lastSentMs_ = 0;
};

// The record of a run's state as the follower sends it.
QByteArray stateRecord(const protocol::RunState& state, bool alive);
// What a run that left no final state becomes when its job is gone: the run's
// status ("cancelled" or "failed") and the reason naming the job's state.
protocol::RunState reconciledState(protocol::RunState state, qint64 jobId, const SlurmJobState& job, const QString& runDir);

} // namespace sb::launch
