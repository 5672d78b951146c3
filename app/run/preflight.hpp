// The checks before a launch, shown with progress: the plan is valid, its
// estimated peak fits the device, the ranks can be laid out on the target,
// every host is reachable (and logged into), and shardbench-core is there.
// A plan that does not fit fails its memory check unless the user confirmed
// launching it anyway (Environment::ignoreMemoryEstimate); a local run is
// also checked against this machine (launch_checks.hpp): its memory, cores
// or GPUs, the core's build and the checkpoint folder.
// Checks that do not depend on each other all run, so every failure is shown
// at once. The prepared run of a passed pre-flight is what gets launched.
// The checks know no wording: a PreflightWords (the workbench's translated
// one, the command line's English one) writes each result when it is shown.
#pragma once

#include "hosts/host_probe_runner.hpp"
#include "run/launch_request.hpp"

#include "launch/launch_checks.hpp"
#include "plan/problem.hpp"

#include <QObject>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace sb::app {

class PreflightWords;

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

    Preflight(std::shared_ptr<const PreflightWords> words, launch::HostKeyPolicy* policy, QObject* parent = nullptr);

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
    const PreflightWords& words() const { return *words_; }

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

    std::shared_ptr<const PreflightWords> words_;
    HostProbeRunner probes_;
    LaunchRequest request_;
    Environment environment_;
    PreparedRun prepared_;
    QList<Item> items_;
    std::vector<qint64> predicted_;
    bool running_ = false;
};

// What each result says, in the words of whoever shows it.
class PreflightWords {
public:
    virtual ~PreflightWords() = default;
    virtual QString checkName(Preflight::Check check) const = 0;
    virtual QString checkingHosts(bool local) const = 0;
    virtual QString startingCore() const = 0;
    virtual QString planValid(int warnings) const = 0;
    virtual QString planErrors(int errors) const = 0;
    virtual QString problemLine(const Problem& problem) const = 0;
    virtual QString memoryNotEstimated() const = 0;
    virtual QString layoutNotChecked() const = 0;
    virtual QString memoryFits(std::uint64_t peak, std::uint64_t capacity) const = 0;
    virtual QString memoryOverConfirmed(int rank, std::uint64_t peak, std::uint64_t capacity) const = 0;
    virtual QString memoryOver(int rank, std::uint64_t peak, std::uint64_t capacity) const = 0;
    virtual QString cannotWritePlan() const = 0;
    virtual QString cannotLayOut() const = 0;
    virtual QString cannotRunHere() const = 0;
    // One thing wrong with the run settings; the launcher's English unless overridden.
    virtual QString runConfigProblem(const launch::RunConfigProblem& problem) const;
    virtual QString layout(const QList<launch::HostSpec>& hosts, int world, bool local, bool slurm) const = 0;
    virtual QString hostsReachable(bool local, int hosts) const = 0;
    virtual QString hostsFailed(int hosts) const = 0;
    virtual QString coreMissing(int hosts) const = 0;
    virtual QString coreNotChecked() const = 0;
    virtual QString corePresent(int hosts) const = 0;
    virtual QString hostLabel(const HostProbeResult& result) const = 0;
    virtual QString probeFailure(const HostProbeResult& result) const = 0;
    virtual QString coreVersion(const HostProbeResult& result) const = 0;
};

} // namespace sb::app

namespace sb::gui { using namespace app; } // the workbench still names these unqualified
