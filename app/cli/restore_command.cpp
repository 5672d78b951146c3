// `restore`: the workbench's "Restore as a new run" from the command line.
// The checkpoint's own plan gets the mesh for the new world size (through
// app's restore-plan code), is written next to the run store, and is run as
// `run PLAN --resume CHECKPOINT_DIR` with every other option passed on. A
// PyTorch run's DCP checkpoint has no plan of its own: the plan, the engine,
// the script, its arguments and the Python are those of the run that saved
// it (its folder DIR/<run uid> names it in the store) unless given.
#include "app_commands.hpp"

#include "args.hpp"
#include "command_exit.hpp"
#include "run_command.hpp"
#include "target_options.hpp"
#include "text_format.hpp"

#include "run/launch_request.hpp"
#include "run/restore_plan.hpp"

#include "launch/launch_target.hpp"
#include "plan/plan_json.hpp"
#include "plan/plan_limits.hpp"
#include "store/run_reader.hpp"
#include "store/store_location.hpp"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace sb::cli {

const char* const kRestoreUsage =
    "shardbench-cli restore CHECKPOINT_DIR --world-size N [--steps N] [--checkpoint-dir DIR | --no-checkpoints] [RUN OPTIONS]\n"
    "  RUN OPTIONS: those of shardbench-cli run (the target, --db, --name, --parent-run, ...), not --resume\n"
    "  A PyTorch run's DCP checkpoint restores with that run's plan, engine, script, arguments and Python (from --db)";

namespace {

int usageError(std::ostream& err, const QString& msg) { return cli::usageError(err, "restore", msg.toStdString(), kRestoreUsage); }

int fail(std::ostream& err, const QString& msg)
{
    err << "shardbench-cli restore: " << msg.toStdString() << "\n";
    return kExitBadInput;
}

// The run options given, in their order, for `run`.
std::vector<std::string> runArguments(const Args& a)
{
    std::vector<std::string> out;
    for (const std::string& opt : runValuedOptions())
        for (const std::string& v : a.values(opt)) out.insert(out.end(), {opt, v});
    for (const std::string& flag : runFlags())
        if (a.has(flag)) out.push_back(flag);
    return out;
}

// The run that saved the checkpoint (with its plan), when the store knows it.
std::optional<store::RunRow> savedBy(const QString& dbPath, const QString& runUid)
{
    if (runUid.isEmpty() || !QFileInfo::exists(dbPath)) return std::nullopt;
    const Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(dbPath);
    if (!reader) return std::nullopt;
    auto run = reader.value()->findRun(runUid);
    if (!run || run->uid != runUid) return std::nullopt;
    return run;
}

// The options that start the ranks as `parent`'s were started.
std::vector<std::string> engineArguments(const store::RunRow& parent)
{
    launch::RunConfig c;
    app::runAsBefore(c, parent);
    if (c.engine == launch::Engine::Core) return {};
    std::vector<std::string> out{"--engine", launch::engineName(c.engine), "--python", c.python.toStdString()};
    if (!c.script.isEmpty()) out.insert(out.end(), {"--script", c.script.toStdString()});
    for (const QString& arg : c.scriptArgs) out.insert(out.end(), {"--script-arg", arg.toStdString()});
    return out;
}

} // namespace

int cmdRestore(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    std::set<std::string> valued = runValuedOptions(), flags = runFlags();
    valued.insert({"--world-size", "--steps", "--checkpoint-dir"});
    flags.insert("--no-checkpoints");
    Args a(argv, valued, flags);
    if (!a.ok()) return usageError(err, q(a.error()));
    if (a.positional().size() != 1) return usageError(err, QStringLiteral("expected one checkpoint folder"));
    if (a.has("--resume")) return usageError(err, QStringLiteral("--resume is the checkpoint folder itself"));
    if (!a.has("--world-size")) return usageError(err, QStringLiteral("--world-size N is required"));
    if (a.has("--checkpoint-dir") && a.has("--no-checkpoints"))
        return usageError(err, QStringLiteral("give --checkpoint-dir or --no-checkpoints, not both"));
    const int world = static_cast<int>(a.integer("--world-size", 0, 1, plan_limits::kMaxWorldSize));
    if (!a.ok()) return usageError(err, q(a.error()));
    launch::RunConfig target;
    if (auto why = readTarget(a, target)) return why->usage ? usageError(err, why->lines.value(0)) : fail(err, why->lines.join(u'\n'));

    const QString checkpoint = QFileInfo(q(a.positional()[0])).absoluteFilePath();
    const QString dbPath = a.value("--db") ? q(*a.value("--db")) : store::defaultDatabasePath();
    app::RestoreSource source = app::readRestoreSource(checkpoint, {});
    std::optional<store::RunRow> parent = savedBy(dbPath, source.runUid);
    if (source.dcp && parent) {
        source = app::readRestoreSource(checkpoint, parent->planJson);
        source.worldSize = parent->worldSize; // the run wrote its DCP checkpoints at its own world size
    }
    if (!source.error.isEmpty())
        return fail(err, QStringLiteral("cannot read the checkpoint %1: %2%3")
                             .arg(checkpoint, source.error,
                                  source.dcp && !parent ? QStringLiteral(" (no run %1 in %2)").arg(source.runUid, dbPath) : QString()));

    // The restore dialog's defaults: the plan's own steps when still ahead, its own checkpoint root.
    const int planSteps = source.plan.training.steps;
    app::RestoreChoice choice;
    choice.worldSize = world;
    choice.nodes = std::max<int>(1, static_cast<int>(launch::sshHosts(target.target).size()));
    choice.steps = static_cast<int>(a.integer("--steps", planSteps > source.step ? planSteps : source.step + std::max(planSteps, 1),
                                              source.step + 1, plan_limits::kMaxSteps));
    if (!a.ok()) return usageError(err, QStringLiteral("%1 (the checkpoint is at step %2)").arg(q(a.error())).arg(source.step));
    if (auto v = a.value("--checkpoint-dir")) choice.checkpointDir = QFileInfo(q(*v)).absoluteFilePath();
    else if (!a.has("--no-checkpoints") && !source.plan.training.checkpoint.dir.empty())
        choice.checkpointDir = app::defaultRestoreCheckpointDir(checkpoint, source.runUid);
    const Plan plan = app::withAbsolutePaths(app::restoredPlan(source.plan, choice), QDir::currentPath());
    if (plan.mesh.worldSize() != world)
        return fail(err, QStringLiteral("%1 ranks cannot be spread evenly over %2 hosts").arg(world).arg(choice.nodes));

    const QString launchDir = QFileInfo(dbPath).absolutePath() + QStringLiteral("/launches");
    const QString planFile = launchDir + QStringLiteral("/restore-") +
                             QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) + QStringLiteral(".json");
    if (!QDir().mkpath(launchDir)) return fail(err, QStringLiteral("cannot create %1").arg(launchDir));
    if (const Status saved = savePlanFile(plan, planFile.toStdString()); !saved.ok())
        return fail(err, QString::fromStdString(saved.message())); // names the file
    err << "shardbench: restoring step " << source.step << " of " << source.worldSize << " ranks at " << world << " ranks ("
        << planFile.toStdString() << ")\n";

    std::vector<std::string> run{planFile.toStdString(), "--resume", checkpoint.toStdString()};
    const std::vector<std::string> options = runArguments(a);
    run.insert(run.end(), options.begin(), options.end());
    if (parent && !a.has("--parent-run")) run.insert(run.end(), {"--parent-run", std::to_string(parent->id)});
    if (parent && !a.has("--engine")) {
        const std::vector<std::string> engine = engineArguments(*parent);
        run.insert(run.end(), engine.begin(), engine.end());
    }
    return cmdRun(run, out, err);
}

} // namespace sb::cli
