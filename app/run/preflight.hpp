// The checks before a launch, shown with progress: the plan is valid, its
// estimated peak fits the device, the ranks can be laid out on the target,
// every host is reachable (and logged into), and shardbench-core is there.
// A plan that does not fit fails its memory check unless the user confirmed
// launching it anyway (Environment::ignoreMemoryEstimate); a local run is
// also checked against this machine (launch_checks.hpp): its memory, cores
// or GPUs, the core's build and the checkpoint folder.
// Checks that do not depend on each other all run, so every failure is shown
// at once. The prepared run of a passed pre-flight is what gets launched.
// The checks know no wording: each result is a code of the pre-flight
// catalogue (preflight_codes.hpp) with its arguments, and each front end
// words it when it is shown (the command line in the catalogue's English,
// the workbench in its language).
#pragma once

#include "hosts/host_probe_runner.hpp"
#include "run/launch_request.hpp"
#include "run/preflight_codes.hpp"

#include "launch/launch_checks.hpp"
#include "launch/run_config_problems.hpp"
#include "plan/problem.hpp"

#include <QObject>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace sb::app {

// One detail line of a result: a message of the pre-flight catalogue, a
// problem of the plan, a problem of the run settings, a host whose probe
// failed (its failure is the code), or a host's name or a sentence of the
// launcher, shown as it is.
using PreflightDetail = std::variant<PreflightMessage, Problem, launch::RunConfigProblem, HostProbeResult, QString>;

class Preflight : public QObject {
    Q_OBJECT
public:
    enum Check { PlanValid, MemoryFits, Layout, HostsReachable, CorePresent, CheckCount };
    enum State { Pending, Running, Passed, Failed, Skipped };
    // Results are data, worded when shown, so they follow a change of language.
    struct Item {
        Check check = PlanValid;
        State state = Pending;
        std::optional<PreflightMessage> summary; // one line; none while pending
        std::vector<PreflightDetail> details;    // one line per problem or host
        PreflightCode name = PreflightCode::CheckPlan; // the check's name, for the run's engine
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

Q_SIGNALS:
    void aboutToStart(); // the items are about to be replaced
    void started();
    void itemChanged(int index);
    void progressChanged(int done, int total);
    void finished(bool passed);

private:
    void set(Check check, State state, PreflightMessage summary, std::vector<PreflightDetail> details = {});
    void checkPlan();
    void onProbesFinished();
    void maybeFinish();
    // Slurm's nodes find a core named without a folder on their PATH: not this machine's to check.
    bool coreOnNodesPath() const;

    HostProbeRunner probes_;
    LaunchRequest request_;
    Environment environment_;
    PreparedRun prepared_;
    QList<Item> items_;
    std::vector<qint64> predicted_;
    bool running_ = false;
};

// The catalogue's code of a check's name (the engine's check is named for it).
PreflightCode checkNameCode(Preflight::Check check, launch::Engine engine = launch::Engine::Core);

} // namespace sb::app
