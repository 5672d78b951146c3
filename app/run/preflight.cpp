#include "run/preflight.hpp"

#include "estimate/estimate.hpp"

#include <QTimer>

namespace sb::app {

Preflight::Preflight(std::shared_ptr<const PreflightWords> words, launch::HostKeyPolicy* policy, QObject* parent)
    : QObject(parent), words_(std::move(words)), probes_(policy)
{
    connect(&probes_, &HostProbeRunner::finished, this, &Preflight::onProbesFinished);
    connect(&probes_, &HostProbeRunner::progressChanged, this, [this] { Q_EMIT progressChanged(doneCount(), CheckCount); });
}

bool Preflight::passed() const
{
    if (running_ || items_.size() != CheckCount) return false;
    for (const Item& i : items_)
        if (i.state != Passed) return false;
    return true;
}

bool Preflight::onlyMemoryFailed() const
{
    if (running_ || items_.size() != CheckCount || items_[MemoryFits].state != Failed) return false;
    for (const Item& i : items_)
        if (i.check != MemoryFits && i.state != Passed) return false;
    return true;
}

int Preflight::doneCount() const
{
    int n = 0;
    for (const Item& i : items_) n += i.state == Passed || i.state == Failed || i.state == Skipped ? 1 : 0;
    return n;
}

void Preflight::set(Check check, State state, Text summary, Lines details)
{
    Item& i = items_[check];
    i.state = state;
    i.summary = std::move(summary);
    i.details = std::move(details);
    Q_EMIT itemChanged(check);
    Q_EMIT progressChanged(doneCount(), CheckCount);
}

void Preflight::run(const LaunchRequest& request, const Environment& environment)
{
    if (running_) return;
    Q_EMIT aboutToStart();
    request_ = request;
    environment_ = environment;
    prepared_ = {};
    predicted_.clear();
    items_.clear();
    for (int c = 0; c < CheckCount; ++c) items_ << Item{static_cast<Check>(c), Pending, {}, {}};
    running_ = true;
    Q_EMIT started();
    Q_EMIT progressChanged(0, CheckCount);

    // The hosts first: they take longest.
    QList<ProbeTarget> targets;
    const bool local = launch::startsHere(request.target);
    if (local) targets << ProbeTarget{true, {}};
    for (const launch::HostSpec& h : launch::sshHosts(request.target)) targets << ProbeTarget{false, h};
    set(HostsReachable, Running, [w = words_, local] { return w->checkingHosts(local); });
    set(CorePresent, Running, [w = words_] { return w->startingCore(); });
    probes_.start(targets, environment.ssh, environment.localCore, environment.probe);
    // The plan checks on the next turn, so the window shows "running" first.
    QTimer::singleShot(0, this, &Preflight::checkPlan);
}

void Preflight::checkPlan()
{
    const Plan& plan = request_.plan;
    Problems treeProblems;
    const std::shared_ptr<const ModuleTree> tree = buildModuleTree(plan.model, &treeProblems);
    Problems errors;
    int warnings = 0;
    auto sort = [&](const Problems& problems) {
        for (const Problem& p : problems) {
            if (p.severity == Severity::Error) errors.push_back(p);
            else ++warnings;
        }
    };
    sort(treeProblems);
    if (tree) sort(validatePlan(plan, *tree));
    const bool valid = tree && errors.empty();
    if (valid) {
        set(PlanValid, Passed, [w = words_, warnings] { return w->planValid(warnings); });
    } else {
        const int count = static_cast<int>(errors.size());
        set(PlanValid, Failed, [w = words_, count] { return w->planErrors(count); }, [w = words_, errors] {
            QStringList lines;
            for (const Problem& p : errors) lines << w->problemLine(p);
            return lines;
        });
    }
    if (!valid) {
        set(MemoryFits, Skipped, [w = words_] { return w->memoryNotEstimated(); });
        set(Layout, Skipped, [w = words_] { return w->layoutNotChecked(); });
        maybeFinish();
        return;
    }
    const Estimate e = estimateMemory(plan, *tree);
    for (const RankEstimate& r : e.ranks) predicted_.push_back(static_cast<qint64>(r.peakBytes));
    prepared_ = prepareRun(request_, environment_.ssh, environment_.localCore, environment_.probe.remoteCore,
                           environment_.probe.remoteDir);
    // The launcher's verdict when the run is laid out (a local CPU run also
    // shares this machine's memory), else the plan's own capacity.
    launch::MemoryVerdict verdict;
    if (prepared_.ok()) {
        verdict = launch::memoryVerdict(prepared_.result.launch, environment_.thisMachine);
    } else {
        verdict.peakBytes = e.peakBytes();
        verdict.worstRank = e.worstRank;
        verdict.capacityBytes = e.capacityBytes;
    }
    const std::uint64_t peak = verdict.peakBytes, capacity = verdict.capacityBytes;
    const int worst = verdict.worstRank;
    if (verdict.fits())
        set(MemoryFits, Passed, [w = words_, peak, capacity] { return w->memoryFits(peak, capacity); });
    else if (environment_.ignoreMemoryEstimate)
        set(MemoryFits, Passed, [w = words_, peak, capacity, worst] { return w->memoryOverConfirmed(worst, peak, capacity); });
    else
        set(MemoryFits, Failed, [w = words_, peak, capacity, worst] { return w->memoryOver(worst, peak, capacity); });

    launch::LaunchCheckResult target;
    if (prepared_.ok() && launch::startsHere(request_.target)) {
        launch::LaunchCheckOptions options;
        options.checkMemory = false; // the check above
        const launch::PreparedLaunch& l = prepared_.result.launch;
        // Only a CUDA plan depends on the core's build.
        const launch::CoreBuild core = l.cuda ? launch::probeCoreBuild(launch::hereCore(l.config.target)->corePath) : launch::CoreBuild{};
        target = launch::checkLaunchTarget(l, options, environment_.thisMachine, core);
    }
    // The launcher's sentences are English; they are shown as they are.
    if (!prepared_.writeError.isEmpty()) {
        const QStringList why{prepared_.writeError};
        set(Layout, Failed, [w = words_] { return w->cannotWritePlan(); }, [why] { return why; });
    } else if (!prepared_.result.configProblems.empty()) {
        // The run settings' problems are codes: each front end words them.
        set(Layout, Failed, [w = words_] { return w->cannotLayOut(); },
            [w = words_, problems = prepared_.result.configProblems] {
                QStringList why;
                for (const launch::RunConfigProblem& p : problems) why << w->runConfigProblem(p);
                return why;
            });
    } else if (!prepared_.result.ok()) {
        const QStringList why = prepared_.result.errors;
        set(Layout, Failed, [w = words_] { return w->cannotLayOut(); }, [why] { return why; });
    } else if (!target.ok()) {
        const QStringList why = target.errors;
        set(Layout, Failed, [w = words_] { return w->cannotRunHere(); }, [why] { return why; });
    } else {
        const launch::PreparedLaunch& l = prepared_.result.launch;
        const QList<launch::HostSpec> hosts = l.hosts;
        const int world = l.worldSize;
        const launch::BackendKind kind = launch::backendOf(request_.target);
        const bool local = kind != launch::BackendKind::Ssh, slurm = kind == launch::BackendKind::Slurm;
        const QStringList layoutWarnings = prepared_.result.warnings + target.warnings;
        set(Layout, Passed, [w = words_, hosts, world, local, slurm] { return w->layout(hosts, world, local, slurm); },
            [layoutWarnings] { return layoutWarnings; });
    }
    maybeFinish();
}

namespace {
bool coreProblem(const HostProbeResult& r)
{
    return r.failure == HostProbeResult::CoreMissing || r.failure == HostProbeResult::CoreFailed ||
           r.failure == HostProbeResult::CoreTimeout;
}
} // namespace

void Preflight::onProbesFinished()
{
    const QList<HostProbeResult> results = probes_.results();
    const bool local = launch::startsHere(request_.target);
    const int total = static_cast<int>(results.size());
    int unreachable = 0, missing = 0, working = 0;
    for (const HostProbeResult& r : results) {
        if (!r.ok() && !coreProblem(r)) ++unreachable;
        if (coreProblem(r)) ++missing;
        if (r.ok()) ++working;
    }
    // Per-host lines only say more than the summary when there are hosts.
    auto lines = [w = words_, results, local](bool failures, bool core) {
        return [w, results, local, failures, core] {
            QStringList out;
            if (local && !failures) return out;
            for (const HostProbeResult& r : results) {
                const bool failed = core ? coreProblem(r) : !r.ok() && !coreProblem(r);
                if (failures && failed) out << w->probeFailure(r);
                else if (!failures && !failed && (core ? r.ok() : true))
                    out << (core ? w->hostLabel(r) + QStringLiteral(": ") + w->coreVersion(r) : w->hostLabel(r));
            }
            return out;
        };
    };
    if (unreachable == 0)
        set(HostsReachable, Passed, [w = words_, local, total] { return w->hostsReachable(local, total); },
            lines(false, false));
    else
        set(HostsReachable, Failed, [w = words_, unreachable] { return w->hostsFailed(unreachable); }, lines(true, false));
    if (missing > 0)
        set(CorePresent, Failed, [w = words_, missing] { return w->coreMissing(missing); }, lines(true, true));
    else if (unreachable > 0 && working < total)
        set(CorePresent, Skipped, [w = words_] { return w->coreNotChecked(); }, lines(false, true));
    else if (local)
        set(CorePresent, Passed, [w = words_, results] { return w->coreVersion(results.value(0)); });
    else
        set(CorePresent, Passed, [w = words_, total] { return w->corePresent(total); }, lines(false, true));
    maybeFinish();
}

void Preflight::cancel()
{
    if (!running_) return;
    probes_.cancel();
}

void Preflight::maybeFinish()
{
    if (!running_) return;
    for (const Item& i : items_)
        if (i.state == Pending || i.state == Running) return;
    running_ = false;
    Q_EMIT finished(passed());
}

QString PreflightWords::runConfigProblem(const launch::RunConfigProblem& problem) const
{
    return launch::runConfigMessage(problem);
}

} // namespace sb::app
