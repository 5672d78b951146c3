#include "run_command.hpp"

#include "args.hpp"
#include "attach_commands.hpp"
#include "interrupt_signals.hpp"
#include "run_console.hpp"
#include "target_options.hpp"
#include "text_format.hpp"

#include "launch/backend_factory.hpp"
#include "launch/detach/detached_launch.hpp"
#include "launch/slurm/sbatch_script.hpp"
#include "launch/launch_checks.hpp"
#include "launch/prepared_launch.hpp"
#include "launch/run_recorder.hpp"
#include "launch/run_supervisor.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "protocol/run_limits.hpp"
#include "store/sqlite_run_store.hpp"
#include "store/store_location.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace sb::cli {

const char* const kRunUsage =
    "shardbench-cli run PLAN.json [--local | --slurm | --hosts HOSTFILE | --host HOST[:SLOTS] ...]\n"
    "       [--db FILE] [--name NAME] [--max-restarts N] [--resume CHECKPOINT_DIR] [--init-from WEIGHTS] [--parent-run ID]\n"
    "       [--ignore-memory-estimate]\n"
    "       [--core PATH] [--workdir DIR] [--env NAME=VALUE ...] [--master-addr ADDR] [--master-port N]\n"
    "       [--remote-core PATH] [--remote-dir DIR] [--remote-workdir DIR] [--accept-new-host-key]\n"
    "       [--ssh-config FILE] [--known-hosts FILE] [--ssh-dir DIR] [--identity KEYFILE ...] [--connect-timeout S] [--connect-tries N]\n"
    "       [--partition P] [--account A] [--time HH:MM:SS] [--slurm-arg --OPTION=VALUE ...]\n"
    "       [--stop-grace MS] [--verbose] [--quiet] [--detach [--no-follow] [--run-root DIR] [--supervise PATH] [--head-ssh-config FILE]]";

namespace {

constexpr int kBadInput = 2;
constexpr int kCheckpointsFailed = 3; // trained to the end, but checkpoints failed

QString q(const std::string& s) { return QString::fromStdString(s); }

int usageError(std::ostream& err, const QString& msg)
{
    err << "shardbench-cli run: " << msg.toStdString() << "\nusage: " << kRunUsage << "\n";
    return kBadInput;
}

int targetError(std::ostream& err, const TargetError& why)
{
    if (why.usage) return usageError(err, why.lines.value(0));
    for (const QString& line : why.lines) err << "shardbench-cli run: " << terminalSafe(line).toStdString() << "\n";
    return kBadInput;
}

} // namespace

std::set<std::string> runValuedOptions()
{
    std::set<std::string> valued = targetValuedOptions();
    valued.insert({"--db", "--name", "--max-restarts", "--resume", "--init-from", "--env", "--master-addr", "--master-port", "--stop-grace",
                   "--parent-run", "--run-root", "--supervise", "--head-ssh-config"});
    return valued;
}

std::set<std::string> runFlags()
{
    std::set<std::string> flags = targetFlags();
    flags.insert({"--verbose", "-v", "--quiet", "--detach", "--no-follow", "--ignore-memory-estimate"});
    return flags;
}

int cmdRun(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, runValuedOptions(), runFlags());
    if (!a.ok()) return usageError(err, q(a.error()));
    if (a.positional().size() != 1) return usageError(err, QStringLiteral("expected one plan file"));

    launch::RunConfig c;
    c.planPath = q(a.positional()[0]);
    if (auto why = readTarget(a, c)) return targetError(err, *why);
    if (auto v = a.value("--name")) c.name = q(*v);
    c.maxRestarts = static_cast<int>(a.integer("--max-restarts", 0, 0, limits::kMaxRestarts));
    c.masterPort = static_cast<int>(a.integer("--master-port", 0, 1, 65535));
    c.stopGraceMs = static_cast<int>(a.integer("--stop-grace", c.stopGraceMs, 0, limits::kMaxStopGraceMs));
    c.stopDeadlineMs = std::max(c.stopDeadlineMs, c.stopGraceMs + 3000);
    c.parentRun = a.integer("--parent-run", -1, 1, 1ll << 62);
    if (!a.ok()) return usageError(err, q(a.error()));
    if (auto v = a.value("--resume")) c.resumeFrom = q(*v);
    // Weights to start from: a .safetensors file or a Hugging Face model folder,
    // where the core runs (on this machine and Slurm's shared file system
    // relative to here; over SSH as the cluster has it, relative to the remote working folder).
    if (auto v = a.value("--init-from")) c.initFrom = launch::hereCore(c.target) ? QFileInfo(q(*v)).absoluteFilePath() : q(*v);
    if (auto v = a.value("--master-addr")) c.masterAddr = q(*v);
    for (const std::string& kv : a.values("--env")) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) return usageError(err, QStringLiteral("--env needs NAME=VALUE, got \"%1\"").arg(q(kv)));
        c.extraEnv.insert(q(kv.substr(0, eq)), q(kv.substr(eq + 1)));
    }
    if (auto why = checkTargetCore(a, c)) return targetError(err, *why);

    const launch::PrepareResult prepared = launch::prepareLaunch(c);
    for (const QString& w : launch::runConfigMessages(prepared.warnings)) err << "shardbench-cli run: " << terminalSafe(w).toStdString() << "\n";
    if (!prepared.ok()) {
        for (const QString& e : launch::runConfigMessages(prepared.errors)) err << "shardbench-cli run: " << terminalSafe(e).toStdString() << "\n";
        return kBadInput;
    }

    // What cannot run where it is sent is refused before anything starts.
    launch::LaunchCheckOptions checkOptions;
    checkOptions.ignoreMemoryEstimate = a.has("--ignore-memory-estimate");
    const launch::HereCore* here = launch::hereCore(c.target);
    const launch::CoreBuild core = here ? launch::probeCoreBuild(here->corePath) : launch::CoreBuild{};
    const launch::LaunchCheckResult checks =
        launch::checkLaunchTarget(prepared.launch, checkOptions, launch::MachineFacts::ofThisMachine(), core);
    for (const QString& w : launch::runConfigMessages(checks.warnings)) err << "shardbench-cli run: warning: " << terminalSafe(w).toStdString() << "\n";
    if (!checks.ok()) {
        for (const QString& e : launch::runConfigMessages(checks.errors)) err << "shardbench-cli run: " << terminalSafe(e).toStdString() << "\n";
        return kBadInput;
    }

    const QString dbPath = a.value("--db") ? q(*a.value("--db")) : store::defaultDatabasePath();
    QString storeError;
    std::unique_ptr<store::SqliteRunStore> store = store::SqliteRunStore::open(dbPath, &storeError);
    if (!store) {
        err << "shardbench-cli run: run store " << dbPath.toStdString() << ": " << storeError.toStdString() << "\n";
        return kBadInput;
    }

    launch::FixedHostKeyPolicy policy(a.has("--accept-new-host-key") ? launch::HostKeyDecision::AcceptAndRemember
                                                                    : launch::HostKeyDecision::Reject);
    if (a.has("--detach")) {
        // What the workbench would choose, unless the options say otherwise.
        launch::DetachOptions d = launch::defaultDetachOptions(prepared.launch, dbPath);
        if (auto v = a.value("--run-root")) d.runRoot = q(*v);
        if (c.backend() == launch::BackendKind::Slurm && a.has("--head-ssh-config"))
            return usageError(err, QStringLiteral("--head-ssh-config applies to SSH runs"));
        if (auto v = a.value("--supervise")) d.supervise = q(*v);
        if (auto v = a.value("--head-ssh-config")) d.headSshConfig = q(*v);
        if (c.backend() == launch::BackendKind::Slurm && d.supervise.contains(QLatin1Char('/')))
            d.supervise = QFileInfo(d.supervise).absoluteFilePath(); // the batch script runs it on a node
        if (c.backend() == launch::BackendKind::Slurm) {
            // What the batch script cannot carry is bad input, refused before anything is written.
            const auto bad = launch::batchScriptProblems(prepared.launch,
                                                         launch::slurmRunRoot(prepared.launch, d.runRoot) + QLatin1Char('/') + prepared.launch.uid);
            for (const QString& e : launch::runConfigMessages(bad)) err << "shardbench-cli run: " << terminalSafe(e).toStdString() << "\n";
            if (!bad.empty()) return kBadInput;
        }
        launch::DetachedRun detached;
        const QString why = launch::launchDetached(prepared.launch, d, *store, policy, &detached);
        store.reset(); // attaching opens its own writer
        if (!why.isEmpty()) {
            err << "shardbench-cli run: " << terminalSafe(why).toStdString() << "\n"; // may hold the cluster's words
            return 1;
        }
        if (!a.has("--quiet"))
            err << "shardbench: run " << detached.runId << " (" << prepared.launch.uid.toStdString() << "): "
                << terminalSafe(prepared.launch.planSummary).toStdString() << ", supervised on "
                << terminalSafe(detached.target.describe()).toStdString()
                << (detached.supervisorPid > 0 ? " (pid " + std::to_string(detached.supervisorPid) + ")" : std::string()) << "\n";
        if (a.has("--no-follow")) {
            out << detached.runId << "\n";
            return 0;
        }
        launch::AttachOptions o;
        return attachAndIngest(dbPath, detached.runId, o, a.has("--quiet"), out, err);
    }
    for (const char* opt : {"--no-follow", "--run-root", "--supervise", "--head-ssh-config"})
        if (a.has(opt)) return usageError(err, QStringLiteral("%1 applies to --detach runs").arg(QLatin1String(opt)));
    const launch::BackendKind kind = c.backend();
    launch::RunSupervisor supervisor(prepared.launch, [kind, &policy] { return launch::makeBackend(kind, &policy); });
    launch::RunRecorder recorder(*store, supervisor);
    if (!recorder.ok()) {
        err << "shardbench-cli run: " << recorder.error().toStdString() << "\n";
        return kBadInput;
    }

    // Console output goes through stdio so it interleaves with std::ostream users.
    std::fflush(nullptr);
    out.flush();
    err.flush();
    QTextStream errStream(stderr);
    QTextStream outStream(stdout);
    RunConsole::Options consoleOptions;
    consoleOptions.verbose = a.has("--verbose") || a.has("-v");
    consoleOptions.quiet = a.has("--quiet");
    consoleOptions.terminal = ::isatty(STDERR_FILENO) == 1;
    RunConsole console(supervisor, errStream, consoleOptions);

    InterruptSignals interrupts;
    QObject::connect(&interrupts, &InterruptSignals::interrupted, &supervisor, [&supervisor](int sig, int count) {
        if (count == 1) supervisor.cancel({FailureCode::CancelledBySignal, {launch::signalName(sig).toStdString()}});
        else supervisor.forceStop();
    });
    std::signal(SIGPIPE, SIG_IGN); // a closed terminal or pipe must not kill the supervisor

    errStream << "shardbench: run " << recorder.runId() << " (" << prepared.launch.uid << "): "
              << terminalSafe(prepared.launch.planSummary) << ", " << launch::backendName(c.backend()) << "\n";
    errStream.flush();
    QObject::connect(&supervisor, &launch::RunSupervisor::finished, QCoreApplication::instance(),
                     [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    supervisor.start();
    QCoreApplication::exec();

    console.printSummary(outStream, recorder.runId(), QFileInfo(dbPath).absoluteFilePath());
    if (!recorder.error().isEmpty()) errStream << "shardbench: warning: " << terminalSafe(recorder.error()) << "\n";
    errStream.flush();
    switch (supervisor.outcome().status) {
    case store::RunStatus::Completed: return supervisor.outcome().failedCheckpoints > 0 ? kCheckpointsFailed : 0;
    case store::RunStatus::Cancelled: return 130;
    default: return 1;
    }
}

} // namespace sb::cli
