#include "attach_commands.hpp"

#include "args.hpp"
#include "command_exit.hpp"
#include "interrupt_signals.hpp"
#include "store_option.hpp"
#include "text_format.hpp"

#include "launch/detach/detached_control.hpp"
#include "launch/detach/detached_refresh.hpp"
#include "launch/detach/rank_log_fetch.hpp"
#include "launch/run_alerts.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>

#include <cmath>
#include <csignal>

namespace sb::cli {

const char* const kAttachUsage =
    "shardbench-cli attach RUN [--db FILE] [--no-follow] [--logs SEL] [--live-steps SEL] [--silence-timeout S] [--quiet] [--on-alert CMD]\n"
    "       [--wire 1|2]   SEL: all, none, rank0 or ranks like 0,5,17 (defaults: --logs rank0, --live-steps rank0);\n"
    "       --wire 1: the JSON records of followers before wire 2 (slower; for comparisons)";
const char* const kStopUsage = "shardbench-cli stop RUN [--db FILE] [--kill]";

namespace {

std::string s(const QString& q) { return q.toStdString(); }


// A run of the store by reference, with its attach target: 0, or the exit
// code after saying why not.
int detachedRun(const QString& dbPath, const QString& ref, const char* cmd, std::ostream& err, store::RunRow* run,
                launch::AttachTarget* target)
{
    const Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(dbPath);
    QString error = qtMessage(reader);
    std::optional<store::RunRow> row = reader ? reader.value()->findRun(ref) : std::nullopt;
    if (reader && !row) error = reader.value()->lastError();
    else if (row && !row->isDetached())
        error = QStringLiteral("run %1 was not launched detached (its launcher supervised it)").arg(row->id);
    else if (row) {
        const Result<launch::AttachTarget> recorded = launch::AttachTarget::fromJson(row->attachJson);
        if (recorded) *target = recorded.value();
        else error = QStringLiteral("run %1: %2").arg(row->id).arg(qtMessage(recorded));
    }
    if (!error.isEmpty()) {
        err << "shardbench-cli " << cmd << ": " << s(terminalSafe(error)) << "\n";
        return kExitBadInput;
    }
    *run = *row;
    return kExitOk;
}

// Records `update` (a run's final row) in the store at `dbPath`, or says why not.
Status recordFinal(const QString& dbPath, const store::RunUpdate& update)
{
    Result<std::unique_ptr<store::SqliteRunStore>> store = store::SqliteRunStore::open(dbPath);
    if (!store) return store.status();
    store.value()->updateRun(update);
    return store.value()->flush();
}

} // namespace

bool settleVanishedRun(const QString& dbPath, const store::RunRow& run, std::ostream& err)
{
    if (!run.isDetached() || !run.mayStillRun()) return false;
    const Result<launch::AttachTarget> recorded = launch::AttachTarget::fromJson(run.attachJson);
    if (!recorded || recorded.value().transport == launch::AttachTarget::Transport::Slurm) // squeue knows a Slurm run's fate
        return false;
    const launch::AttachTarget& target = recorded.value();
    const Result<launch::SupervisorProcess> looked = launch::signalSupervisor(target, launch::SupervisorSignal::None);
    if (!looked || !launch::isGoneForGood(looked.value())) return false;
    const launch::SupervisorProcess& found = looked.value();
    const store::RunUpdate u = launch::goneRunUpdate(run.id, target, found);
    if (const Status recorded = recordFinal(dbPath, u); !recorded) {
        err << "shardbench-cli: run " << run.id << ": cannot record its end: " << s(terminalSafe(qtMessage(recorded))) << "\n";
        return false;
    }
    err << "shardbench: run " << run.id << ": recorded as failed: " << s(terminalSafe(*u.reason)) << "\n";
    return true;
}

int attachAndIngest(const QString& dbPath, qint64 runId, const launch::AttachOptions& options, bool quiet,
                    std::ostream& out, std::ostream& err, const QString& alertCommand)
{
    store::RunRow run;
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(dbPath);
    if (!opened) {
        err << "shardbench-cli attach: run store " << s(dbPath) << ": " << opened.error() << "\n";
        return kExitBadInput;
    }
    const std::unique_ptr<store::SqliteRunStore> store = std::move(opened).value();
    launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject); // the launch verified the host
    Result<std::unique_ptr<launch::AttachSession>> attached = launch::openAttachSession(dbPath, *store, runId, &policy, options, &run);
    if (!attached) {
        err << "shardbench-cli attach: " << s(terminalSafe(qtMessage(attached))) << "\n";
        return kExitBadInput;
    }
    launch::AttachSession& session = *attached.value();
    const launch::AttachTarget& target = session.target();

    // Every line said here carries text from the cluster: reasons, log lines, host names, remote errors.
    auto say = [&err](const QString& line) { err << "shardbench: " << s(terminalSafe(line)) << "\n" << std::flush; };
    QElapsedTimer lastStep;
    QObject::connect(&session, &launch::AttachSession::progress, &session, say);
    launch::RunIngestor& in = session.ingestor();
    QObject::connect(&in, &launch::RunIngestor::stateChanged, &session,
                     [&](store::RunStatus st, const launch::CodedReason& reason, bool alive) {
                         if (quiet) return;
                         say(QStringLiteral("run %1: %2%3%4").arg(runId).arg(store::statusName(st),
                             reason.isEmpty() ? QString() : QStringLiteral(" (") + reason.text + QLatin1Char(')'),
                             alive || store::isFinal(st) ? QString() : QStringLiteral(" [supervisor not running]")));
                     });
    QObject::connect(&in, &launch::RunIngestor::logLine, &session, [&](int, int rank, const QString& line) {
        if (rank < 0 && !quiet && options.follow) say(QStringLiteral("[supervisor] ") + line);
    });
    QObject::connect(&in, &launch::RunIngestor::stepReported, &session, [&](const protocol::StepMetrics& m) {
        if (quiet || m.rank != 0 || !options.follow || (lastStep.isValid() && lastStep.elapsed() < 1000)) return;
        lastStep.start();
        say(QStringLiteral("attempt %1 step %2: loss %3, %4 tokens/s").arg(m.attempt).arg(m.step).arg(m.loss, 0, 'f', 4).arg(m.tokensPerS, 0, 'f', 0));
    });
    // Alerts only while following: a catch-up is a look back, not a watch.
    launch::RunAlerts alerts;
    if (options.follow) {
        alerts.watch(runId, run.name);
        QObject::connect(&in, &launch::RunIngestor::stepReported, &alerts, &launch::RunAlerts::log);
        // The end once everything is in: a catch-up brings the final state before the last steps.
        QObject::connect(&session, &launch::AttachSession::finished, &alerts, [&alerts, &in](const QString&) {
            alerts.setStatus(in.status(), in.reason());
        });
        QObject::connect(&alerts, &launch::RunAlerts::alert, &session, [&say, &alertCommand, quiet](const launch::RunAlert& a) {
            if (!quiet) say(QStringLiteral("alert: ") + launch::alertSentence(a));
            launch::startAlertCommand(alertCommand, a);
        });
    }
    QString finishError;
    QObject::connect(&session, &launch::AttachSession::finished, &session, [&](const QString& e) {
        finishError = e;
        QCoreApplication::exit(0);
    }, Qt::QueuedConnection);

    InterruptSignals interrupts; // Ctrl-C detaches; the run goes on
    QObject::connect(&interrupts, &InterruptSignals::interrupted, &session, [&](int, int count) {
        if (count == 1) say(QStringLiteral("detaching; the run goes on (shardbench-cli stop %1 stops it)").arg(runId));
        session.detach();
    });
    std::signal(SIGPIPE, SIG_IGN);
    if (!quiet) say(QStringLiteral("attaching to run %1 (%2)").arg(runId).arg(target.describe()));
    session.start();
    QCoreApplication::exec();
    if (const Status stored = store->flush(); !stored && finishError.isEmpty())
        finishError = QStringLiteral("the run store cannot be written: ") + qtMessage(stored);
    if (!finishError.isEmpty()) {
        err << "shardbench-cli attach: run " << runId << ": " << s(terminalSafe(finishError)) << "\n";
        // Not `starting` for ever when nothing of it is left (written by a connection of its own: WAL).
        if (!store::isFinal(in.status())) settleVanishedRun(dbPath, run, err);
        return kExitFailed;
    }
    const store::RunStatus st = in.status();
    // Lines the supervisor could not write into the run directory (a full disk) make no plain completion either.
    const bool checkpointsFailed = in.state().failedCheckpoints > 0 || in.state().losses.lines > 0;
    out << "run " << runId << " (" << s(terminalSafe(run.uid)) << "): " << s(store::statusName(st));
    if (!in.reason().isEmpty()) out << ": " << s(terminalSafe(in.reason()));
    const int steps = in.stepsDone(); // a dead supervisor's last state lags its last step line
    out << ", " << steps << " steps";
    if (in.state().finalLoss) out << ", final loss " << s(QString::number(*in.state().finalLoss, 'f', 4));
    out << "\n";
    return runExitStatus(st, checkpointsFailed);
}

Status fetchRankLog(const QString& dbPath, qint64 runId, int rank)
{
    Result<std::unique_ptr<store::SqliteRunStore>> store = store::SqliteRunStore::open(dbPath);
    if (!store) return store.status().prefixed("run store " + dbPath.toStdString());
    launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject); // the launch verified the host
    Result<std::unique_ptr<launch::AttachSession>> fetch = launch::openRankLogFetch(dbPath, *store.value(), runId, rank, &policy);
    if (!fetch) return fetch.status();
    QString error;
    QEventLoop loop;
    QObject::connect(fetch.value().get(), &launch::AttachSession::finished, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    }, Qt::QueuedConnection);
    fetch.value()->start();
    loop.exec();
    const Status stored = store.value()->flush();
    if (!error.isEmpty()) return qtError(error);
    return stored;
}

int runExitStatus(store::RunStatus status, bool checkpointsFailed)
{
    switch (status) {
    case store::RunStatus::Completed: return checkpointsFailed ? kExitCheckpointsFailed : kExitOk;
    case store::RunStatus::Cancelled: return kExitCancelled;
    case store::RunStatus::Failed: return kExitFailed;
    case store::RunStatus::Starting:
    case store::RunStatus::Running: break; // attach --no-follow returns while the run goes on
    }
    return kExitOk;
}

int refreshDetachedRuns(const QString& dbPath, std::ostream& err)
{
    QList<qint64> ids;
    if (const Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(dbPath))
        ids = launch::DetachedRefresh::pendingRuns(reader.value()->listRuns());
    if (ids.isEmpty()) return 0;
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(dbPath);
    if (!opened) {
        err << "shardbench-cli runs: run store " << s(dbPath) << ": " << opened.error() << "\n";
        return 0;
    }
    const std::unique_ptr<store::SqliteRunStore> store = std::move(opened).value();
    launch::FixedHostKeyPolicy policy(launch::HostKeyDecision::Reject); // the launch verified the host
    launch::DetachedRefresh refresh(dbPath, *store, &policy);
    QEventLoop loop;
    QList<qint64> unreached;
    QObject::connect(&refresh, &launch::DetachedRefresh::runRefreshed, &loop, [&](qint64 id, const QString& e) {
        if (!e.isEmpty()) unreached << id;
    });
    QObject::connect(&refresh, &launch::DetachedRefresh::finished, &loop, [&](const QStringList& errors) {
        for (const QString& e : errors) err << "shardbench-cli runs: " << s(terminalSafe(e)) << "\n";
        loop.quit();
    });
    refresh.start(ids);
    loop.exec();
    if (const Status stored = store->flush(); !stored)
        err << "shardbench-cli runs: run store " << s(dbPath) << ": " << stored.message() << "\n";
    // A run that could not be followed because nothing of it is left ends here, not `starting` for ever.
    if (unreached.isEmpty()) return static_cast<int>(ids.size());
    const Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(dbPath);
    for (qint64 id : unreached)
        if (const std::optional<store::RunRow> row = reader ? reader.value()->run(id) : std::nullopt) settleVanishedRun(dbPath, *row, err);
    return static_cast<int>(ids.size());
}

int cmdAttach(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db", "--logs", "--live-steps", "--silence-timeout", "--wire", "--on-alert"}, {"--no-follow", "--quiet"});
    if (!a.ok()) return usageError(err, "attach", a.error(), kAttachUsage);
    if (a.positional().size() != 1) return usageError(err, "attach", "expected one run", kAttachUsage);
    if (a.has("--on-alert") && a.has("--no-follow"))
        return usageError(err, "attach", "--on-alert needs a run this command follows (not --no-follow)", kAttachUsage);
    launch::AttachOptions o;
    o.follow = !a.has("--no-follow");
    o.silenceMs = static_cast<int>(a.integer("--silence-timeout", o.silenceMs / 1000, 3, 3600)) * 1000;
    o.wire = static_cast<int>(a.integer("--wire", o.wire, 1, 2));
    if (!a.ok()) return usageError(err, "attach", a.error(), kAttachUsage);
    for (auto [option, value] : {std::pair{"--logs", &o.logs}, std::pair{"--live-steps", &o.liveSteps}}) {
        const std::optional<std::string> v = a.value(option);
        if (!v) continue;
        if (const Status bad = launch::checkRankSet(QString::fromLatin1(option), q(*v)); !bad)
            return usageError(err, "attach", bad.message(), kAttachUsage);
        *value = q(*v);
    }
    const QString dbPath = storePathOption(a);
    store::RunRow run;
    launch::AttachTarget target;
    if (const int code = detachedRun(dbPath, q(a.positional()[0]), "attach", err, &run, &target)) return code;
    return attachAndIngest(dbPath, run.id, o, a.has("--quiet"), out, err, a.value("--on-alert") ? q(*a.value("--on-alert")) : QString());
}

int cmdStop(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {"--kill"});
    if (!a.ok()) return usageError(err, "stop", a.error(), kStopUsage);
    if (a.positional().size() != 1) return usageError(err, "stop", "expected one run", kStopUsage);
    const QString dbPath = storePathOption(a);
    store::RunRow run;
    launch::AttachTarget target;
    if (const int code = detachedRun(dbPath, q(a.positional()[0]), "stop", err, &run, &target)) return code;
    launch::SupervisorProcess found;
    const Result<QString> said = launch::stopDetachedRun(target, a.has("--kill"), &found);
    if (!said) {
        err << "shardbench-cli stop: run " << run.id << ": " << s(terminalSafe(qtMessage(said))) << "\n";
        return kExitFailed;
    }
    err << "shardbench: run " << run.id << ": " << s(terminalSafe(said.value())) << "\n";
    if (launch::isGoneForGood(found)) {
        // No run directory: no state will ever say how it ended; this command does.
        if (!run.mayStillRun()) return kExitOk;
        const store::RunUpdate u = launch::goneRunUpdate(run.id, target, found);
        if (const Status recorded = recordFinal(dbPath, u); !recorded) {
            err << "shardbench-cli stop: run " << run.id << ": cannot record its end: " << s(terminalSafe(qtMessage(recorded))) << "\n";
            return kExitFailed;
        }
        out << "run " << run.id << " (" << s(terminalSafe(run.uid)) << "): " << s(store::statusName(*u.status)) << ": "
            << s(terminalSafe(*u.reason)) << "\n";
        return kExitOk;
    }
    launch::AttachOptions o;
    o.follow = false;
    attachAndIngest(dbPath, run.id, o, true, out, err); // record the final state
    return kExitOk;
}

} // namespace sb::cli
