// The checks before a launch, shown with progress: the plan is valid, its
// estimated peak fits the device, the ranks can be laid out on the target,
// every host is reachable (and logged into), and shardbench-core is there.
// A plan that does not fit fails its memory check unless the user confirmed
// launching it anyway (Environment::ignoreMemoryEstimate); a local run is
// also checked against this machine (launch_checks.hpp): its memory, cores
// or GPUs, the core's build and the checkpoint folder.
// Checks that do not depend on each other all run, so every failure is shown
// at once. The prepared run of a passed pre-flight is what gets launched.
#pragma once

#include "host_probe_runner.hpp"
#include "launch_request.hpp"

#include "launch/launch_checks.hpp"

#include <QObject>
#include <QStringList>

#include <functional>

#include <vector>

namespace sb::gui {

class Preflight : public QObject {
    Q_OBJECT
public:
    enum Check { PlanValid, MemoryFits, Layout, HostsReachable, CorePresent, CheckCount };
    enum State { Pending, Running, Passed, Failed, Skipped };
    // Texts are built when shown, so they follow a change of language.
    using Text = std::function<QString()>;
    using Lines = std::function<QStringList()>;
    struct Item {
        Check check = PlanValid;
        State state = Pending;
        Text summary;  // one line
        Lines details; // one line per problem or host
        QString summaryText() const { return summary ? summary() : QString(); }
        QStringList detailLines() const { return details ? details() : QStringList(); }
    };
    struct Environment {
        launch::SshOptions ssh;
        QString localCore;
        HostProbeOptions probe;
        launch::MachineFacts thisMachine; // zero fields: unknown, not checked
        bool ignoreMemoryEstimate = false; // the user confirmed launching a plan that does not fit
    };

    explicit Preflight(launch::HostKeyPolicy* policy, QObject* parent = nullptr);

    void run(const LaunchRequest& request, const Environment& environment);
    void cancel();
    bool isRunning() const { return running_; }
    bool passed() const;
    // Every check passed but the memory estimate: a confirmation may launch it anyway.
    bool onlyMemoryFailed() const;
    const QList<Item>& items() const { return items_; }
    int doneCount() const;
    const LaunchRequest& request() const { return request_; }
    const PreparedRun& prepared() const { return prepared_; }
    // The estimator's peak of every rank, for the live memory chart.
    const std::vector<qint64>& predictedPeaks() const { return predicted_; }

    static QString checkName(Check check);

Q_SIGNALS:
    void aboutToStart(); // the items are about to be replaced
    void started();
    void itemChanged(int index);
    void progressChanged(int done, int total);
    void finished(bool passed);

private:
    void set(Check check, State state, Text summary, Lines details = {});
    void checkPlan();
    void onProbesFinished();
    void maybeFinish();

    HostProbeRunner probes_;
    LaunchRequest request_;
    Environment environment_;
    PreparedRun prepared_;
    QList<Item> items_;
    std::vector<qint64> predicted_;
    bool running_ = false;
};

} // namespace sb::gui
