// Ranks as the tasks of one Slurm job step: a single srun per attempt
// (srun_command.hpp), on the nodes Slurm allocates. srun's labelled output is
// split back into each rank's stdout and stderr, its status lines into each
// rank's exit (srun_output.hpp). A stop is srun's own cancel: SIGINT twice
// (status, then abort; the first after a short settle, see slurm_backend.cpp),
// SIGKILL after the grace; a kill is SIGKILL to srun
// and scancel of the step and of the job srun allocated. The plan is copied
// to WORKDIR/.shardbench/runs/RUN_ID/plan.json, which every node must see
// (a shared file system), as it must see the core.
#pragma once

#include "status/qt_status.hpp"

#include "../backend.hpp"
#include "job_canceller.hpp"
#include "srun_output.hpp"

#include <QList>
#include <QProcess>
#include <QTimer>

namespace sb::launch {

class SlurmBackend final : public Backend {
    Q_OBJECT
public:
    explicit SlurmBackend(QObject* parent = nullptr);
    ~SlurmBackend() override;

    void start(const PreparedLaunch& launch, const AttemptSpec& attempt) override;
    void terminate() override;
    void kill() override;

private:
    Result<QString> copyPlan(const QString& workdir) const; // the plan.json beside its shipped files
    void readStdout();
    void readStderr();
    void onTaskLine(int task, OutputStream stream, QByteArray line, bool truncated);
    void onSrunMessage(const SrunMessage& m);
    void onStepLaunch(const SrunMessage& m);
    void ranksRunning();
    void reportExit(int rank, RankExit::Kind kind, int code);
    void onSrunFinished(int code, QProcess::ExitStatus status);
    void onStartError();
    void interruptSrun();
    void cancelJob();
    void giveUp();
    void maybeFinish();

    PreparedLaunch launch_;
    AttemptSpec attempt_;
    QProcess srun_;
    SrunOutputReader reader_;
    JobCanceller canceller_;
    QList<bool> exited_;      // per rank
    QList<bool> started_;     // per rank: its hello (with its pid) was seen
    qint64 jobId_ = -1;
    QString step_;            // "12.0"
    QString lastError_;       // srun's last error line, for a launch that failed
    QString masterHost_;      // the node of rank 0
    bool ownAllocation_ = true;
    bool announcedAllocation_ = false;
    bool running_ = false;    // the tasks were launched
    bool srunDone_ = false;
    bool stopping_ = false;
    bool interrupted_ = false; // srun was told to stop: it signals the tasks from now on
    bool cancelRequested_ = false;
    bool finished_ = false;
    int graceMs_ = 2000;
    int deadlineMs_ = 5000;
    QTimer firstInterrupt_, secondInterrupt_, graceTimer_, deadlineTimer_;
};

} // namespace sb::launch
