// The one-node Slurm cluster of the Slurm suites (slurm_cluster.sh: slurmctld
// and slurmd on this machine, free ports, a temporary folder), and what the
// suites ask it.
#pragma once

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace sb::test {

class SlurmTestCluster {
public:
    ~SlurmTestCluster(); // stops it
    // Why the suite must be skipped (not root, Slurm not installed), or "".
    static QString skipReason();
    // Starts it and points SLURM_CONF at it (no SLURM_JOB_ID around the test): "" or why not.
    QString start();
    void stop();

private:
    QTemporaryDir dir_;
    bool started_ = false;
};

QString shortHostName();
// Job names in the queue (pending, running or completing).
QStringList queuedJobNames();
// Job ids in the queue.
QStringList queuedJobIds();

} // namespace sb::test
