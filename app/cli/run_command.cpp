#include "run_command.hpp"

#include "args.hpp"
#include "attach_commands.hpp"
#include "cli_launch.hpp"
#include "command_exit.hpp"
#include "interrupt_signals.hpp"
#include "preflight_words.hpp"
#include "run_console.hpp"
#include "target_options.hpp"
#include "text_format.hpp"

#include "run/run_service.hpp"

#include "launch/run_alerts.hpp"
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
    "       [--ignore-memory-estimate] [--engine core|pytorch [--script FILE] [--script-arg ARG ...] [--python PATH]]\n"
    "       [--core PATH] [--workdir DIR] [--env NAME=VALUE ...] [--master-addr ADDR] [--master-port N]\n"
    "       [--remote-core PATH] [--remote-dir DIR] [--remote-workdir DIR] [--accept-new-host-key]\n"
    "       [--ssh-config FILE] [--known-hosts FILE] [--ssh-dir DIR] [--identity KEYFILE ...] [--connect-timeout S] [--connect-tries N]\n"
    "       [--partition P] [--account A] [--time HH:MM:SS] [--slurm-arg --OPTION=VALUE ...]\n"
    "       [--stop-grace MS] [--verbose] [--quiet] [--on-alert CMD]\n"
    "       [--detach [--no-follow] [--run-root DIR] [--supervise PATH] [--head-ssh-config FILE]]";

namespace {

int usageError(std::ostream& err, const QString& msg) { return cli::usageError(err, "run", msg.toStdString(), kRunUsage); }

int targetError(std::ostream& err, const TargetError& why)
{
    if (why.usage) return usageError(err, why.lines.value(0));
    for (const QString& line : why.lines) err << "shardbench-cli run: " << terminalSafe(line).toStdString() << "\n";
    return kExitBadInput;
}

} // namespace

std::set<std::string> runValuedOptions()
{
    std::set<std::string> valued = targetValuedOptions();
    valued.insert({"--db", "--name", "--max-restarts", "--resume", "--init-from", "--env", "--master-addr", "--master-port", "--stop-grace",
                   "--parent-run", "--run-root", "--supervise", "--head-ssh-config", "--on-alert"});
    for (const std::string& o : engineValuedOptions()) valued.insert(o);
    return valued;
}

std::set<std::string> runFlags()
{
    std::set<std::string> flags = targetFlags();
    flags.insert({"--verbose", "-v", "--quiet", "--detach", "--no-follow", "--ignore-memory-estimate"});
    return flags;
}

namespace {

// The run's configuration from the options (the target, restarts, resume,
// initial weights, rendezvous, stop grace, environment); an exit code when
// they are bad input.
std::optional<int> readRunConfig(Args& a, launch::RunConfig& c, std::ostream& err)
{
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
    if (const Status engine = readEngineOptions(a, c); !engine) return usageError(err, qtMessage(engine));
    if (auto why = checkTargetCore(a, c)) return targetError(err, *why);
    return std::nullopt;
}

// The exit code of a launch the service refused, its words on `err`; nullopt when it was not refused.
std::optional<int> refusalExit(const app::RunService& service, const QString& dbGiven, std::ostream& err)
{
    switch (service.refusal()) {
    case app::RunService::Refusal::None: return std::nullopt;
    case app::RunService::Refusal::ChecksFailed:
    case app::RunService::Refusal::NotDetachable:
        for (const QString& line : service.refusalLines()) err << "shardbench-cli run: " << terminalSafe(line).toStdString() << "\n";
        return kExitBadInput;
    case app::RunService::Refusal::StoreUnavailable:
        err << "shardbench-cli run: run store " << dbGiven.toStdString() << ": " << service.refusalDetail().toStdString() << "\n";
        return kExitBadInput;
    case app::RunService::Refusal::NotRecorded:
        err << "shardbench-cli run: " << service.refusalDetail().toStdString() << "\n";
        return kExitBadInput;
    case app::RunService::Refusal::NotStarted:
    case app::RunService::Refusal::Busy:
        err << "shardbench-cli run: " << terminalSafe(service.refusalDetail()).toStdString() << "\n"; // may hold the cluster's words
        return kExitFailed;
    }
    return std::nullopt;
}

} // namespace

int cmdRun(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, runValuedOptions(), runFlags());
    if (!a.ok()) return usageError(err, q(a.error()));
    if (a.positional().size() != 1) return usageError(err, QStringLiteral("expected one plan file"));

    launch::RunConfig c;
    if (const std::optional<int> bad = readRunConfig(a, c, err)) return *bad;

    const bool quiet = a.has("--quiet");
    const bool detach = a.has("--detach");
    if (!detach)
        for (const char* opt : {"--no-follow", "--run-root", "--supervise", "--head-ssh-config"})
            if (a.has(opt)) return usageError(err, QStringLiteral("%1 applies to --detach runs").arg(QLatin1String(opt)));
    if (a.has("--on-alert") && a.has("--no-follow"))
        return usageError(err, QStringLiteral("--on-alert needs a run this command follows (not --no-follow)"));
    if (c.backend() == launch::BackendKind::Slurm && a.has("--head-ssh-config"))
        return usageError(err, QStringLiteral("--head-ssh-config applies to SSH runs"));

    // The plan as the ranks read it (relative paths made absolute for runs
    // here and on Slurm), beside the store like the workbench's.
    const QString dbGiven = a.value("--db") ? q(*a.value("--db")) : store::defaultDatabasePath();
    const QString dbPath = QFileInfo(dbGiven).absoluteFilePath();
    std::optional<CliLaunch> l = readCliLaunch(c.planPath, c, QFileInfo(dbPath).absolutePath() + QStringLiteral("/launches"),
                                               a.has("--ignore-memory-estimate"), "run", err);
    if (!l) return kExitBadInput;
    l->request.detach = detach;
    if (auto v = a.value("--run-root")) l->request.detachChoice.runRoot = q(*v);
    if (auto v = a.value("--supervise")) l->request.detachChoice.supervise = q(*v);
    if (auto v = a.value("--head-ssh-config")) l->request.detachChoice.headSshConfig = q(*v);

    // The store is opened once the checks passed: a refused run leaves no store behind.
    launch::FixedHostKeyPolicy policy(a.has("--accept-new-host-key") ? launch::HostKeyDecision::AcceptAndRemember
                                                                    : launch::HostKeyDecision::Reject);
    // The run's alerts (end, failure, stall, a loss that is not finite), said
    // and given to --on-alert's command.
    const QString alertCommand = a.value("--on-alert") ? q(*a.value("--on-alert")) : QString();
    launch::RunAlerts alerts;
    app::RunService service(dbPath, [dbPath]() -> Result<std::shared_ptr<store::SqliteRunStore>> {
        Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(dbPath);
        if (!opened) return opened.status();
        return std::shared_ptr<store::SqliteRunStore>(std::move(opened).value());
    }, &policy);

    // Console output goes through stdio so it interleaves with std::ostream users.
    std::fflush(nullptr);
    out.flush();
    err.flush();
    QTextStream errStream(stderr);
    QTextStream outStream(stdout);
    RunConsole::Options consoleOptions;
    consoleOptions.verbose = a.has("--verbose") || a.has("-v");
    consoleOptions.quiet = quiet;
    consoleOptions.terminal = ::isatty(STDERR_FILENO) == 1;
    std::unique_ptr<RunConsole> console;
    std::optional<launch::DetachedRun> detached;
    QObject::connect(&service, &app::RunService::supervisedStarting, &service,
                     [&](const std::shared_ptr<app::SupervisedRun>& run) {
                         console = std::make_unique<RunConsole>(run->supervisor(), errStream, consoleOptions);
                         alerts.watchSupervised(run->supervisor(), run->runId(), run->launch().config.name);
                         errStream << "shardbench: run " << run->runId() << " (" << run->launch().uid << "): "
                                   << terminalSafe(run->launch().planSummary) << ", " << launch::backendName(c.backend()) << "\n";
                         errStream.flush();
                     });
    QObject::connect(&alerts, &launch::RunAlerts::alert, &service, [&](const launch::RunAlert& alert) {
        if (!quiet) {
            errStream << "shardbench: alert: " << terminalSafe(launch::alertSentence(alert)) << "\n";
            errStream.flush();
        }
        launch::startAlertCommand(alertCommand, alert);
    });
    // Every launch ends idle once: refused, run to its end, or started detached.
    QObject::connect(&service, &app::RunService::stateChanged, QCoreApplication::instance(), [](app::RunService::State st) {
        if (st == app::RunService::State::Idle) QCoreApplication::exit(0);
    }, Qt::QueuedConnection);
    QObject::connect(&service, &app::RunService::detachedStarted, &service, [&detached](const launch::DetachedRun& run) { detached = run; });

    InterruptSignals interrupts;
    QObject::connect(&interrupts, &InterruptSignals::interrupted, &service, [&service](int sig, int count) {
        const FailureReason why{FailureCode::CancelledBySignal, {launch::signalName(sig).toStdString()}};
        if (service.state() == app::RunService::State::Checking || count == 1) service.stop(why);
        else if (const auto& run = service.supervised()) run->stop(why);
    });
    std::signal(SIGPIPE, SIG_IGN); // a closed terminal or pipe must not kill the supervisor

    service.launch(l->request, l->environment);
    QCoreApplication::exec();

    const app::Preflight& preflight = *service.preflight();
    const bool interruptedChecks = service.refusal() == app::RunService::Refusal::None && !preflight.passed();
    if (interruptedChecks) return kExitCancelled;
    if (consoleOptions.verbose) printPreflight(preflight, err);
    printPreflightFindings(preflight, "run", err);
    if (const std::optional<int> refused = refusalExit(service, dbGiven, err)) return *refused;
    if (detached) {
        const launch::PreparedLaunch& prepared = preflight.prepared().result.launch;
        if (!quiet)
            err << "shardbench: run " << detached->runId << " (" << prepared.uid.toStdString() << "): "
                << terminalSafe(prepared.planSummary).toStdString() << ", supervised on " << terminalSafe(detached->target.describe()).toStdString()
                << (detached->supervisorPid > 0 ? " (pid " + std::to_string(detached->supervisorPid) + ")" : std::string()) << "\n";
        if (a.has("--no-follow")) {
            out << detached->runId << "\n";
            return kExitOk;
        }
        launch::AttachOptions o;
        return attachAndIngest(dbPath, detached->runId, o, quiet, out, err, alertCommand);
    }

    const std::shared_ptr<app::SupervisedRun> run = service.supervised();
    if (!run) return kExitCancelled;
    console->printSummary(outStream, run->runId(), dbPath);
    if (!run->error().isEmpty()) errStream << "shardbench: warning: " << terminalSafe(run->error()) << "\n";
    errStream.flush();
    const launch::RunOutcome& outcome = run->supervisor().outcome();
    if (!store::isFinal(outcome.status)) return kExitFailed; // the event loop ended before the run did
    return runExitStatus(outcome.status, outcome.failedCheckpoints > 0);
}

} // namespace sb::cli
