// What a person wants to hear about a run without watching it, as trackers
// alert: it ended (completed or cancelled), it failed, it stalled (no step
// for `stallFactor` times the median time between its steps, and at least
// `minStallMs`), or a step reported a loss that is not finite. Each alert
// once per run; a stall again only after steps came back. Fed with the run's
// steps (a MetricsSink of a supervised run, or the steps an attached run's
// ingest reports) and its status; each front end words and delivers alerts
// (the workbench: gui/window/run_notifier.hpp; shardbench-cli: --on-alert).
#pragma once

#include "metrics_sink.hpp"
#include "run_supervisor.hpp"
#include "store/run_status.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <vector>

namespace sb::launch {

struct RunAlert {
    enum Kind { Finished, Failed, Stalled, NonFiniteLoss };
    Kind kind = Finished;
    qint64 runId = -1;
    QString runName;
    store::RunStatus status = store::RunStatus::Completed; // Finished, Failed
    QString reason;                                         // Failed: the run's reason (English)
    int step = 0;                                           // the last step seen (NonFiniteLoss: that step)
    double loss = 0;                                        // NonFiniteLoss
    qint64 silentMs = 0;                                    // Stalled: how long no step came
};

// "finished", "failed", "stalled", "nan_loss": the alert's name for hooks.
QString alertName(RunAlert::Kind kind);
// One English sentence: "run 7 (sweep) failed at step 120: rank 1 exited with code 3".
QString alertSentence(const RunAlert& alert);
// Starts `command` (a program and its arguments, split as QProcess::splitCommand
// splits them: double quotes group, no shell) on its own, never waited for,
// with SHARDBENCH_ALERT, SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME and
// SHARDBENCH_MESSAGE in its environment. False when empty or not started.
bool startAlertCommand(const QString& command, const RunAlert& alert);

class RunAlerts : public QObject, public MetricsSink {
    Q_OBJECT
public:
    struct Options {
        double stallFactor = 10;   // times the median time between steps
        qint64 minStallMs = 120000; // never sooner: checkpoints and evaluations pause steps
        int checkEveryMs = 1000;
    };
    explicit RunAlerts(QObject* parent = nullptr);
    ~RunAlerts() override;

    void setOptions(const Options& options);
    // Starts watching run `runId` (forgets the one before); its steps and
    // status come through log() and setStatus().
    void watch(qint64 runId, const QString& name);
    // The same for a run this process supervises: its steps as a sink of
    // `supervisor` and its status from it, until the watch ends (here, by
    // watch() or forget(), or with the supervisor).
    void watchSupervised(RunSupervisor& supervisor, qint64 runId, const QString& name);
    // Stops watching: nothing more is said of the run.
    void forget();
    // The run's status; a final one is its last alert.
    void setStatus(store::RunStatus status, const QString& reason);

    void log(const protocol::StepMetrics& step) override;
    void close() override {}

Q_SIGNALS:
    void alert(const sb::launch::RunAlert& alert);

private:
    void checkStall();
    RunAlert make(RunAlert::Kind kind) const;
    void leaveSupervisor();

    Options options_;
    QTimer timer_;
    QElapsedTimer sinceStep_;
    std::vector<qint64> intervals_; // ms between rank 0's steps, as they came
    qint64 runId_ = -1;
    QString name_;
    int lastStep_ = 0;
    bool stalledSaid_ = false, lossSaid_ = false, endSaid_ = false;
    QPointer<RunSupervisor> supervisor_; // the supervised run watched, if any
};

} // namespace sb::launch

Q_DECLARE_METATYPE(sb::launch::RunAlert)
