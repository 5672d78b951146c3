// The pre-flight catalogue: every result the pre-flight (preflight.hpp) can
// report, as a code with its English template, in the style of the failure
// catalogue (core/plan/failure_reason.hpp). %1..%9 are the message's
// arguments in order; %n is its count, and in the English "(s)" follows it
// ("%n host(s)": "1 host", "2 hosts"), as Qt's plural forms do for the
// translations. The English is the command line's; the workbench words the
// same codes from its translatable copy (gui/text/preflight_text.cpp),
// which tests/gui/tst_gui_problems.cpp holds to the same codes and
// placeholders. Arguments are data (a byte count stays a number), so each
// reader writes numbers its own way.
#pragma once

#include "util/catalogue.hpp"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

// X(enumerator, code, English template)
#define SB_PREFLIGHT_CATALOGUE(X) \
    X(CheckPlan, "preflight.check.plan", "plan") \
    X(CheckMemory, "preflight.check.memory", "memory") \
    X(CheckLayout, "preflight.check.layout", "layout") \
    X(CheckHosts, "preflight.check.hosts", "hosts") \
    X(CheckCore, "preflight.check.core", "shardbench-core") \
    X(CheckPython, "preflight.check.python", "python") \
    X(CheckingHere, "preflight.checking_here", "checking this machine") \
    X(Connecting, "preflight.connecting", "connecting") \
    X(StartingCore, "preflight.starting_core", "starting shardbench-core for a test") \
    X(StartingPython, "preflight.starting_python", "testing Python and PyTorch") \
    X(PlanValid, "preflight.plan_valid", "valid") \
    X(PlanWarnings, "preflight.plan_warnings", "valid, %n warning(s)") \
    X(PlanErrors, "preflight.plan_errors", "%n error(s)") \
    X(MemoryNotEstimated, "preflight.memory_not_estimated", "not estimated: the plan has errors") \
    X(LayoutNotChecked, "preflight.layout_not_checked", "not checked: the plan has errors") \
    X(MemoryFits, "preflight.memory_fits", "peak %1 of %2 per rank") \
    X(MemoryOverConfirmed, "preflight.memory_over_confirmed", "rank %1 needs %2 of %3; --ignore-memory-estimate") \
    X(MemoryOver, "preflight.memory_over", "rank %1 needs %2 but the device has %3: over by %4") \
    X(CannotWritePlan, "preflight.cannot_write_plan", "cannot write the plan for the ranks") \
    X(CannotLayOut, "preflight.cannot_lay_out", "cannot be laid out") \
    X(CannotRunHere, "preflight.cannot_run_here", "cannot run on this machine") \
    X(RanksThroughSrun, "preflight.ranks_srun", "%n rank(s) through srun") \
    X(RanksHere, "preflight.ranks_here", "%n rank(s) on this machine") \
    X(RanksOnHosts, "preflight.ranks_on_hosts", "%n rank(s) on %1") \
    X(HostRanks, "preflight.host_ranks", "%1 x%n") \
    X(ThisMachine, "preflight.this_machine", "this machine") \
    X(HostsReachable, "preflight.hosts_reachable", "%n host(s) reachable, logged in") \
    X(HostsFailed, "preflight.hosts_failed", "%n host(s) failed") \
    X(CoreMissing, "preflight.core_missing", "missing or not working on %n host(s)") \
    X(CoreNotChecked, "preflight.core_not_checked", "not checked on unreachable hosts") \
    X(CoreOnNodesPath, "preflight.core_on_nodes_path", "%1 on the nodes' PATH (not checked here)") \
    X(CorePresent, "preflight.core_present", "present on %n host(s)") \
    X(CoreHere, "preflight.core_here", "%1 (LibTorch %2, %3) at %4") \
    X(HostCore, "preflight.host_core", "%1: %2 (LibTorch %3, %4) at %5") \
    X(PythonHere, "preflight.python_here", "Python %1 with PyTorch %2 at %3") \
    X(HostPython, "preflight.host_python", "%1: Python %2 with PyTorch %3 at %4")

namespace sb::app {

enum class PreflightCode { SB_PREFLIGHT_CATALOGUE(SB_CATALOGUE_ENUMERATOR) };

// "preflight.memory_over", "rank %1 needs %2 but the device has %3: over by %4"
using PreflightTemplate = CatalogueRow<PreflightCode>;

// Every row, in the order of the enum.
const std::vector<PreflightTemplate>& preflightCatalogue();
const PreflightTemplate& preflightTemplate(PreflightCode code);
std::optional<PreflightCode> preflightCodeNamed(std::string_view name);

struct PreflightMessage;

// One %N value, as data.
class PreflightArg {
public:
    enum class Kind {
        Integer, // written as digits
        Bytes,   // a size each reader writes in its own units ("1.5 GiB")
        Text,    // a name or a path, written as is
        List,    // messages, each worded, joined by ", "
    };
    template <typename Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
    PreflightArg(Int v) : kind_(Kind::Integer), integer_(static_cast<std::int64_t>(v)) {}
    PreflightArg(QString v) : kind_(Kind::Text), text_(std::move(v)) {}
    static PreflightArg bytes(std::uint64_t v);
    static PreflightArg list(std::vector<PreflightMessage> items);

    Kind kind() const { return kind_; }
    std::int64_t integer() const { return integer_; }
    std::uint64_t byteCount() const { return bytes_; }
    const QString& text() const { return text_; }
    const std::vector<PreflightMessage>& items() const { return items_; }

private:
    Kind kind_;
    std::int64_t integer_ = 0;
    std::uint64_t bytes_ = 0;
    QString text_;
    std::vector<PreflightMessage> items_;
};

struct PreflightMessage {
    PreflightMessage(PreflightCode c, std::vector<PreflightArg> a = {}, int count = -1) : code(c), args(std::move(a)), n(count) {}

    PreflightCode code;
    std::vector<PreflightArg> args; // %1..%9
    int n = -1;                     // %n: the count its plural follows; -1 when it has none

    QString codeName() const { return QString::fromUtf8(preflightTemplate(code).name); }
};

// How a reader words a message: its template (in the reader's language, %n
// already filled with `n`) and its way of writing a byte count.
struct PreflightWording {
    std::function<QString(PreflightCode code, int n)> text;
    std::function<QString(std::uint64_t bytes)> bytes;
};

// The message in the reader's words: %1..%9 filled in one pass (an
// argument that contains "%2" stays as it is).
QString formatPreflight(const PreflightMessage& message, const PreflightWording& wording);

// The catalogue's English template with %n filled and "(s)" made to agree.
QString preflightEnglishText(PreflightCode code, int n);

} // namespace sb::app
