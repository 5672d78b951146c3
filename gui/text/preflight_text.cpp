#include "preflight_text.hpp"

#include "connection_text.hpp"
#include "format.hpp"
#include "problem_text.hpp"

namespace sb::gui {

QString PreflightText::checkName(app::Preflight::Check check) const
{
    switch (check) {
    case app::Preflight::PlanValid: return tr("The plan is valid");
    case app::Preflight::MemoryFits: return tr("The estimated memory fits the device");
    case app::Preflight::Layout: return tr("The ranks fit the chosen machines");
    case app::Preflight::HostsReachable: return tr("The hosts are reachable");
    case app::Preflight::CorePresent: return tr("shardbench-core is present");
    case app::Preflight::CheckCount: break;
    }
    return {};
}

QString PreflightText::checkingHosts(bool local) const { return local ? tr("Checking this machine…") : tr("Connecting…"); }
QString PreflightText::startingCore() const { return tr("Starting shardbench-core for a test…"); }

QString PreflightText::planValid(int warnings) const
{
    return warnings == 0 ? tr("No problems") : tr("No errors, %n warning(s)", nullptr, warnings);
}

QString PreflightText::planErrors(int errors) const { return tr("%n error(s) in the plan", nullptr, errors); }

QString PreflightText::problemLine(const Problem& problem) const
{
    return QString::fromStdString(problem.path.str()) + QStringLiteral(": ") + problemText(problem);
}

QString PreflightText::memoryNotEstimated() const { return tr("Not estimated: the plan has errors"); }
QString PreflightText::layoutNotChecked() const { return tr("Not checked: the plan has errors"); }

QString PreflightText::memoryFits(std::uint64_t peak, std::uint64_t capacity) const
{
    return tr("Peak %1 of %2 per rank").arg(formatBytes(peak), formatBytes(capacity));
}

QString PreflightText::memoryOverConfirmed(int rank, std::uint64_t peak, std::uint64_t capacity) const
{
    return tr("Rank %1 needs %2 but the device has %3: launched anyway, as confirmed")
        .arg(rank)
        .arg(formatBytes(peak), formatBytes(capacity));
}

QString PreflightText::memoryOver(int rank, std::uint64_t peak, std::uint64_t capacity) const
{
    return tr("Rank %1 needs %2 but the device has %3: over by %4")
        .arg(rank)
        .arg(formatBytes(peak), formatBytes(capacity), formatBytes(peak - capacity));
}

QString PreflightText::cannotWritePlan() const { return tr("Cannot write the plan for the ranks"); }
QString PreflightText::cannotLayOut() const { return tr("The run cannot be laid out"); }
QString PreflightText::cannotRunHere() const { return tr("The run cannot run on this machine"); }

QString PreflightText::runConfigProblem(const launch::RunConfigProblem& problem) const { return runConfigProblemText(problem); }

QString PreflightText::layout(const QList<launch::HostSpec>& hosts, int world, bool local, bool slurm) const
{
    if (slurm) return tr("%n rank(s) through srun (Slurm)", nullptr, world);
    if (local) return tr("%n rank(s) on this machine", nullptr, world);
    QStringList parts;
    for (const launch::HostSpec& h : hosts) parts << tr("%1: %n rank(s)", nullptr, h.slots).arg(h.name);
    return tr("%n rank(s) on %1", nullptr, world).arg(parts.join(QStringLiteral(", ")));
}

QString PreflightText::hostsReachable(bool local, int hosts) const
{
    return local ? tr("This machine") : tr("%n host(s) reachable and logged in", nullptr, hosts);
}

QString PreflightText::hostsFailed(int hosts) const { return tr("%n host(s) failed", nullptr, hosts); }
QString PreflightText::coreMissing(int hosts) const { return tr("Missing or not working on %n host(s)", nullptr, hosts); }
QString PreflightText::coreNotChecked() const { return tr("Not checked on hosts that could not be reached"); }
QString PreflightText::corePresent(int hosts) const { return tr("Present on %n host(s)", nullptr, hosts); }
QString PreflightText::hostLabel(const HostProbeResult& result) const { return probeHostLabel(result); }
QString PreflightText::probeFailure(const HostProbeResult& result) const { return probeFailureText(result); }
QString PreflightText::coreVersion(const HostProbeResult& result) const { return probeCoreText(result); }

} // namespace sb::gui
