#include "preflight_words.hpp"

#include "probe_text.hpp"
#include "text_format.hpp"

#include <QStringList>

namespace sb::cli {

namespace {
QString count(int n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}
QString bytes(std::uint64_t b) { return humanBytes(static_cast<qint64>(b)); }
} // namespace

QString PreflightWords::checkName(app::Preflight::Check check) const
{
    switch (check) {
    case app::Preflight::PlanValid: return QStringLiteral("plan");
    case app::Preflight::MemoryFits: return QStringLiteral("memory");
    case app::Preflight::Layout: return QStringLiteral("layout");
    case app::Preflight::HostsReachable: return QStringLiteral("hosts");
    case app::Preflight::CorePresent: return QStringLiteral("shardbench-core");
    case app::Preflight::CheckCount: break;
    }
    return {};
}

QString PreflightWords::checkingHosts(bool local) const
{
    return local ? QStringLiteral("checking this machine") : QStringLiteral("connecting");
}
QString PreflightWords::startingCore() const { return QStringLiteral("starting shardbench-core for a test"); }
QString PreflightWords::planValid(int warnings) const
{
    return warnings == 0 ? QStringLiteral("valid") : QStringLiteral("valid, ") + count(warnings, "warning", "warnings");
}
QString PreflightWords::planErrors(int errors) const { return count(errors, "error", "errors"); }
QString PreflightWords::problemLine(const Problem& problem) const { return QString::fromStdString(formatProblem(problem)); }
QString PreflightWords::memoryNotEstimated() const { return QStringLiteral("not estimated: the plan has errors"); }
QString PreflightWords::layoutNotChecked() const { return QStringLiteral("not checked: the plan has errors"); }

QString PreflightWords::memoryFits(std::uint64_t peak, std::uint64_t capacity) const
{
    return QStringLiteral("peak %1 of %2 per rank").arg(bytes(peak), bytes(capacity));
}

QString PreflightWords::memoryOverConfirmed(int rank, std::uint64_t peak, std::uint64_t capacity) const
{
    return QStringLiteral("rank %1 needs %2 of %3; --ignore-memory-estimate").arg(rank).arg(bytes(peak), bytes(capacity));
}

QString PreflightWords::memoryOver(int rank, std::uint64_t peak, std::uint64_t capacity) const
{
    return QStringLiteral("rank %1 needs %2 but the device has %3").arg(rank).arg(bytes(peak), bytes(capacity));
}

QString PreflightWords::cannotWritePlan() const { return QStringLiteral("cannot write the plan for the ranks"); }
QString PreflightWords::cannotLayOut() const { return QStringLiteral("cannot be laid out"); }
QString PreflightWords::cannotRunHere() const { return QStringLiteral("cannot run on this machine"); }

QString PreflightWords::layout(const QList<launch::HostSpec>& hosts, int world, bool local, bool slurm) const
{
    const QString ranks = count(world, "rank", "ranks");
    if (slurm) return ranks + QStringLiteral(" through srun");
    if (local) return ranks + QStringLiteral(" on this machine");
    QStringList parts;
    for (const launch::HostSpec& h : hosts) parts << QStringLiteral("%1 x%2").arg(h.name).arg(h.slots);
    return ranks + QStringLiteral(" on ") + parts.join(QStringLiteral(", "));
}

QString PreflightWords::hostsReachable(bool local, int hosts) const
{
    return local ? QStringLiteral("this machine") : count(hosts, "host", "hosts") + QStringLiteral(" reachable, logged in");
}
QString PreflightWords::hostsFailed(int hosts) const { return count(hosts, "host", "hosts") + QStringLiteral(" failed"); }
QString PreflightWords::coreMissing(int hosts) const
{
    return QStringLiteral("missing or not working on ") + count(hosts, "host", "hosts");
}
QString PreflightWords::coreNotChecked() const { return QStringLiteral("not checked on unreachable hosts"); }
QString PreflightWords::corePresent(int hosts) const { return QStringLiteral("present on ") + count(hosts, "host", "hosts"); }
QString PreflightWords::hostLabel(const app::HostProbeResult& result) const { return probeHost(result); }
QString PreflightWords::probeFailure(const app::HostProbeResult& result) const { return cli::probeFailure(result); }
QString PreflightWords::coreVersion(const app::HostProbeResult& result) const { return probeCore(result); }

} // namespace sb::cli
