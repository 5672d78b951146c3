#include "preflight_text.hpp"

#include "connection_text.hpp"
#include "format.hpp"
#include "problem_text.hpp"

#include <QCoreApplication>

namespace sb::gui {

namespace {
constexpr const char* kContext = "sb::gui::Preflight";
} // namespace

const std::vector<PreflightTextTemplate>& preflightTextTemplates()
{
    // QT_TRANSLATE_N_NOOP marks the ones with a plural (%n).
    static const std::vector<PreflightTextTemplate> rows{
        {"preflight.check.plan", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The plan is valid")},
        {"preflight.check.memory", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The estimated memory fits the device")},
        {"preflight.check.layout", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The ranks fit the chosen machines")},
        {"preflight.check.hosts", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The hosts are reachable")},
        {"preflight.check.core", QT_TRANSLATE_NOOP("sb::gui::Preflight", "shardbench-core is present")},
        {"preflight.check.python", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Python and PyTorch are present")},
        {"preflight.checking_here", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Checking this machine…")},
        {"preflight.connecting", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Connecting…")},
        {"preflight.starting_core", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Starting shardbench-core for a test…")},
        {"preflight.starting_python", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Testing Python and PyTorch…")},
        {"preflight.plan_valid", QT_TRANSLATE_NOOP("sb::gui::Preflight", "No problems")},
        {"preflight.plan_warnings", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "No errors, %n warning(s)")},
        {"preflight.plan_errors", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n error(s) in the plan")},
        {"preflight.memory_not_estimated", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Not estimated: the plan has errors")},
        {"preflight.layout_not_checked", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Not checked: the plan has errors")},
        {"preflight.memory_fits", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Peak %1 of %2 per rank")},
        {"preflight.memory_over_confirmed",
         QT_TRANSLATE_NOOP("sb::gui::Preflight", "Rank %1 needs %2 but the device has %3: launched anyway, as confirmed")},
        {"preflight.memory_over", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Rank %1 needs %2 but the device has %3: over by %4")},
        {"preflight.cannot_write_plan", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Cannot write the plan for the ranks")},
        {"preflight.cannot_lay_out", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The run cannot be laid out")},
        {"preflight.cannot_run_here", QT_TRANSLATE_NOOP("sb::gui::Preflight", "The run cannot run on this machine")},
        {"preflight.ranks_srun", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n rank(s) through srun (Slurm)")},
        {"preflight.ranks_here", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n rank(s) on this machine")},
        {"preflight.ranks_on_hosts", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n rank(s) on %1")},
        {"preflight.host_ranks", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%1: %n rank(s)")},
        {"preflight.this_machine", QT_TRANSLATE_NOOP("sb::gui::Preflight", "This machine")},
        {"preflight.hosts_reachable", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n host(s) reachable and logged in")},
        {"preflight.hosts_failed", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "%n host(s) failed")},
        {"preflight.core_missing", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "Missing or not working on %n host(s)")},
        {"preflight.core_not_checked", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Not checked on hosts that could not be reached")},
        {"preflight.core_on_nodes_path", QT_TRANSLATE_NOOP("sb::gui::Preflight", "%1 on the nodes' PATH (not checked here)")},
        {"preflight.core_present", QT_TRANSLATE_N_NOOP("sb::gui::Preflight", "Present on %n host(s)")},
        {"preflight.core_here", QT_TRANSLATE_NOOP("sb::gui::Preflight", "%1 (LibTorch %2, %3) at %4")},
        {"preflight.host_core", QT_TRANSLATE_NOOP("sb::gui::Preflight", "%1: %2 (LibTorch %3, %4) at %5")},
        {"preflight.python_here", QT_TRANSLATE_NOOP("sb::gui::Preflight", "Python %1 with PyTorch %2 at %3")},
        {"preflight.host_python", QT_TRANSLATE_NOOP("sb::gui::Preflight", "%1: Python %2 with PyTorch %3 at %4")},
    };
    return rows;
}

namespace {

const app::PreflightWording& workbench()
{
    static const app::PreflightWording w{[](app::PreflightCode code, int n) {
                                             const char* source = preflightTextTemplates()[static_cast<std::size_t>(code)].text;
                                             return QCoreApplication::translate(kContext, source, nullptr, n);
                                         },
                                         [](std::uint64_t b) { return formatBytes(b); }};
    return w;
}

} // namespace

QString preflightText(const app::PreflightMessage& message) { return app::formatPreflight(message, workbench()); }

QString preflightDetailText(const app::PreflightDetail& detail)
{
    struct Words {
        QString operator()(const app::PreflightMessage& m) const { return preflightText(m); }
        QString operator()(const Problem& p) const { return QString::fromStdString(p.path.str()) + QStringLiteral(": ") + problemText(p); }
        QString operator()(const launch::RunConfigProblem& p) const { return runConfigProblemText(p); }
        QString operator()(const app::HostProbeResult& r) const { return probeFailureText(r); }
        QString operator()(const QString& asIs) const { return asIs; }
    };
    return std::visit(Words{}, detail);
}

QString preflightCheckName(const app::Preflight::Item& item) { return preflightText({item.name}); }

QString preflightSummaryText(const app::Preflight::Item& item) { return item.summary ? preflightText(*item.summary) : QString(); }

QStringList preflightDetailLines(const app::Preflight::Item& item)
{
    QStringList lines;
    for (const app::PreflightDetail& d : item.details) lines << preflightDetailText(d);
    return lines;
}

} // namespace sb::gui
