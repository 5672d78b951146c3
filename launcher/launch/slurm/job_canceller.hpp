// Cancels what an srun left behind when srun itself had to be killed: its
// step (SIGKILL to every task now, through scancel --signal=KILL) and, when
// srun made the allocation, the job too (an allocation whose srun is gone is
// otherwise kept until its time limit unless the cluster sets InactiveLimit).
// Runs scancel with an argument vector, one command after the other.
#pragma once

#include <QObject>
#include <QProcess>
#include <QStringList>

#include <memory>

namespace sb::launch {

class JobCanceller final : public QObject {
    Q_OBJECT
public:
    explicit JobCanceller(QObject* parent = nullptr);
    ~JobCanceller() override; // finishes what is queued (at most 5 s), silently

    // `step` ("12.0") may be empty. `ownAllocation`: srun created the job
    // (the launcher did not run inside an allocation), so the job goes too.
    void cancel(qint64 jobId, const QString& step, bool ownAllocation);
    bool busy() const { return process_ != nullptr; }
    // Runs what is queued to the end without an event loop, at most `ms`.
    void wait(int ms);
    // Gives up on a scancel that does not return (slurmctld unreachable).
    void abandon();

Q_SIGNALS:
    void message(const QString& text);
    void done();

private:
    void runNext();

    QList<QStringList> pending_;
    std::unique_ptr<QProcess> process_;
};

} // namespace sb::launch
