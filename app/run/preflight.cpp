#include "run/preflight.hpp"

#include "estimate/estimate.hpp"
#include "hosts/python_probe.hpp"

#include <QTimer>

namespace sb::app {

Preflight::Preflight(launch::HostKeyPolicy* policy, QObject* parent) : QObject(parent), probes_(policy)
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

void Preflight::set(Check check, State state, PreflightMessage summary, std::vector<PreflightDetail> details)
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
    for (int c = 0; c < CheckCount; ++c)
        items_ << Item{static_cast<Check>(c), Pending, std::nullopt, {}, checkNameCode(static_cast<Check>(c), request.config.engine)};
    running_ = true;
    Q_EMIT started();
    Q_EMIT progressChanged(0, CheckCount);

    // The hosts first: they take longest.
    QList<ProbeTarget> targets;
    const bool local = launch::startsHere(request.config.target);
    if (local) targets << ProbeTarget{true, {}};
    for (const launch::HostSpec& h : launch::sshHosts(request.config.target)) targets << ProbeTarget{false, h};
    set(HostsReachable, Running, {local ? PreflightCode::CheckingHere : PreflightCode::Connecting});
    set(CorePresent, Running, {request.config.engine == launch::Engine::PyTorch ? PreflightCode::StartingPython : PreflightCode::StartingCore});
    HostProbeOptions probe = environment.probe;
    probe.runCore = probe.runCore && !coreOnNodesPath();
    setProbedEngine(probe, request.config, request.plan.mesh.device); // for PyTorch: the hosts' Python instead of the core
    probes_.start(targets, environment.ssh, environment.localCore, probe);
    // The plan checks on the next turn, so the window shows "running" first.
    QTimer::singleShot(0, this, &Preflight::checkPlan);
}

namespace {
// How the ranks are laid out: through srun, on this machine, or over the hosts.
PreflightMessage layoutMessage(const launch::PreparedLaunch& l, launch::BackendKind kind)
{
    if (kind == launch::BackendKind::Slurm) return {PreflightCode::RanksThroughSrun, {}, l.worldSize};
    if (kind != launch::BackendKind::Ssh) return {PreflightCode::RanksHere, {}, l.worldSize};
    std::vector<PreflightMessage> hosts;
    for (const launch::HostSpec& h : l.hosts) hosts.push_back({PreflightCode::HostRanks, {h.name}, h.slots});
    return {PreflightCode::RanksOnHosts, {PreflightArg::list(std::move(hosts))}, l.worldSize};
}
} // namespace

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
        set(PlanValid, Passed, warnings == 0 ? PreflightMessage{PreflightCode::PlanValid} : PreflightMessage{PreflightCode::PlanWarnings, {}, warnings});
    } else {
        set(PlanValid, Failed, {PreflightCode::PlanErrors, {}, static_cast<int>(errors.size())},
            std::vector<PreflightDetail>(errors.begin(), errors.end()));
    }
    if (!valid) {
        set(MemoryFits, Skipped, {PreflightCode::MemoryNotEstimated});
        set(Layout, Skipped, {PreflightCode::LayoutNotChecked});
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
    const PreflightArg worst = verdict.worstRank, peakArg = PreflightArg::bytes(peak), capacityArg = PreflightArg::bytes(capacity);
    if (verdict.fits())
        set(MemoryFits, Passed, {PreflightCode::MemoryFits, {peakArg, capacityArg}});
    else if (environment_.ignoreMemoryEstimate)
        set(MemoryFits, Passed, {PreflightCode::MemoryOverConfirmed, {worst, peakArg, capacityArg}});
    else
        set(MemoryFits, Failed, {PreflightCode::MemoryOver, {worst, peakArg, capacityArg, PreflightArg::bytes(peak - capacity)}});

    launch::LaunchCheckResult target;
    if (prepared_.ok() && launch::startsHere(request_.config.target)) {
        launch::LaunchCheckOptions options;
        options.checkMemory = false; // the check above
        const launch::PreparedLaunch& l = prepared_.result.launch;
        // Only a CUDA plan depends on the core's build.
        const launch::CoreBuild core = l.cuda ? launch::probeCoreBuild(launch::hereCore(l.config.target)->corePath) : launch::CoreBuild{};
        target = launch::checkLaunchTarget(l, options, environment_.thisMachine, core);
    }
    // The launcher's findings are its catalogue's codes, worded by the front end.
    auto details = [](std::vector<launch::RunConfigProblem> a, const std::vector<launch::RunConfigProblem>& b = {}) {
        a.insert(a.end(), b.begin(), b.end());
        return std::vector<PreflightDetail>(a.begin(), a.end());
    };
    if (prepared_.writeProblem) {
        set(Layout, Failed, {PreflightCode::CannotWritePlan}, {PreflightDetail(*prepared_.writeProblem)});
    } else if (!prepared_.result.ok()) {
        set(Layout, Failed, {PreflightCode::CannotLayOut}, details(prepared_.result.errors));
    } else if (!target.ok()) {
        set(Layout, Failed, {PreflightCode::CannotRunHere}, details(target.errors));
    } else {
        set(Layout, Passed, layoutMessage(prepared_.result.launch, launch::backendOf(request_.config.target)),
            details(prepared_.result.warnings, target.warnings));
    }
    maybeFinish();
}

namespace {
// What runs the ranks on a host: the core's version, or the Python's and PyTorch's.
PreflightMessage engineOn(const HostProbeResult& r, bool withHost)
{
    std::vector<PreflightArg> args;
    if (withHost) args.push_back(r.host);
    if (!r.pythonVersion.isEmpty()) {
        for (const QString& a : {r.pythonVersion, r.torchVersion, r.corePath}) args.emplace_back(a);
        return {withHost ? PreflightCode::HostPython : PreflightCode::PythonHere, std::move(args)};
    }
    for (const QString& a : {r.coreVersion, r.torchVersion, r.coreDevice, r.corePath}) args.emplace_back(a);
    return {withHost ? PreflightCode::HostCore : PreflightCode::CoreHere, std::move(args)};
}
} // namespace

void Preflight::onProbesFinished()
{
    const QList<HostProbeResult> results = probes_.results();
    const bool local = launch::startsHere(request_.config.target);
    const int total = static_cast<int>(results.size());
    int unreachable = 0, missing = 0, working = 0;
    for (const HostProbeResult& r : results) {
        if (!r.ok() && !engineProblem(r)) ++unreachable;
        if (engineProblem(r)) ++missing;
        if (r.ok()) ++working;
    }
    // Per-host lines only say more than the summary when there are hosts.
    auto lines = [&results, local](bool failures, bool core) {
        std::vector<PreflightDetail> out;
        if (local && !failures) return out;
        for (const HostProbeResult& r : results) {
            const bool failed = core ? engineProblem(r) : !r.ok() && !engineProblem(r);
            if (failures && failed) {
                out.emplace_back(r);
            } else if (!failures && !failed && (core ? r.ok() : true)) {
                if (!core) {
                    out.emplace_back(r.host);
                    continue;
                }
                out.emplace_back(engineOn(r, true));
            }
        }
        return out;
    };
    if (unreachable == 0)
        set(HostsReachable, Passed, local ? PreflightMessage{PreflightCode::ThisMachine} : PreflightMessage{PreflightCode::HostsReachable, {}, total},
            lines(false, false));
    else
        set(HostsReachable, Failed, {PreflightCode::HostsFailed, {}, unreachable}, lines(true, false));
    if (coreOnNodesPath())
        set(CorePresent, Passed, {PreflightCode::CoreOnNodesPath, {environment_.localCore}});
    else if (missing > 0)
        set(CorePresent, Failed, {PreflightCode::CoreMissing, {}, missing}, lines(true, true));
    else if (unreachable > 0 && working < total)
        set(CorePresent, Skipped, {PreflightCode::CoreNotChecked}, lines(false, true));
    else if (local)
        set(CorePresent, Passed, engineOn(results.value(0), false));
    else
        set(CorePresent, Passed, {PreflightCode::CorePresent, {}, total}, lines(false, true));
    maybeFinish();
}

bool Preflight::coreOnNodesPath() const
{
    return request_.config.engine == launch::Engine::Core && launch::backendOf(request_.config.target) == launch::BackendKind::Slurm && !environment_.localCore.isEmpty() &&
           !environment_.localCore.contains(QLatin1Char('/'));
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

PreflightCode checkNameCode(Preflight::Check check, launch::Engine engine)
{
    switch (check) {
    case Preflight::PlanValid: return PreflightCode::CheckPlan;
    case Preflight::MemoryFits: return PreflightCode::CheckMemory;
    case Preflight::Layout: return PreflightCode::CheckLayout;
    case Preflight::HostsReachable: return PreflightCode::CheckHosts;
    case Preflight::CorePresent:
    case Preflight::CheckCount: break;
    }
    return engine == launch::Engine::PyTorch ? PreflightCode::CheckPython : PreflightCode::CheckCore;
}

} // namespace sb::app
