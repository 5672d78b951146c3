#include "cli_launch.hpp"

#include "preflight_words.hpp"
#include "text_format.hpp"

#include "args.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFileInfo>

namespace sb::cli {

std::set<std::string> engineValuedOptions() { return {"--engine", "--script", "--script-arg", "--python"}; }

Status readEngineOptions(const Args& a, launch::RunConfig& c)
{
    const auto engine = a.value("--engine");
    if (engine && *engine == "pytorch") c.engine = launch::Engine::PyTorch;
    else if (engine && *engine != "core") return Status::error("--engine must be core or pytorch, not \"" + *engine + "\"");
    if (c.engine != launch::Engine::PyTorch && (a.has("--script") || a.has("--script-arg") || a.has("--python")))
        return Status::error("--script, --script-arg and --python need --engine pytorch");
    for (const std::string& v : a.values("--script-arg")) c.scriptArgs << QString::fromStdString(v);
    if (auto v = a.value("--script"))
        c.script = launch::hereCore(c.target) ? QFileInfo(QString::fromStdString(*v)).absoluteFilePath() : QString::fromStdString(*v);
    if (auto v = a.value("--python")) c.python = QString::fromStdString(*v);
    return {};
}

std::optional<CliLaunch> readCliLaunch(const QString& planPath, const launch::RunConfig& config, const QString& launchDir,
                                       bool ignoreMemoryEstimate, const char* cmd, std::ostream& err)
{
    const PlanReadResult read = loadPlanFile(planPath.toStdString());
    if (!read.ok()) {
        for (const Problem& p : read.problems) err << "shardbench-cli " << cmd << ": " << planPath.toStdString() << ": " << formatProblem(p) << "\n";
        return std::nullopt;
    }
    CliLaunch l;
    app::LaunchRequest& r = l.request;
    r.plan = read.plan;
    r.config = config;
    const launch::HereCore* here = launch::hereCore(config.target);
    const QString workdir = here ? here->workdir : QString();
    r.planDir = workdir.isEmpty() ? QDir::currentPath() : QFileInfo(workdir).absoluteFilePath();
    r.launchDir = launchDir;
    app::Preflight::Environment& e = l.environment;
    if (here) e.localCore = here->corePath;
    if (const auto* remote = std::get_if<launch::SshTarget>(&config.target)) {
        e.ssh = remote->ssh;
        e.probe.remoteCore = remote->remoteCore;
        e.probe.remoteDir = remote->remoteDir;
    }
    e.thisMachine = launch::MachineFacts::ofThisMachine();
    e.ignoreMemoryEstimate = ignoreMemoryEstimate;
    return l;
}

void printPreflightFindings(const app::Preflight& preflight, const char* cmd, std::ostream& err)
{
    const std::string prefix = std::string("shardbench-cli ") + cmd + ": ";
    for (const app::Preflight::Item& i : preflight.items()) {
        // Summaries and details quote hosts' answers: escaped for the terminal.
        const std::string name = preflightWords({i.name}).toStdString();
        const std::string summary = i.summary ? terminalSafe(preflightWords(*i.summary)).toStdString() : std::string();
        if (i.state == app::Preflight::Failed) {
            err << prefix << name << ": " << summary << "\n";
            for (const app::PreflightDetail& d : i.details) err << prefix << "  " << terminalSafe(preflightDetailWords(d)).toStdString() << "\n";
            if (i.check == app::Preflight::MemoryFits)
                err << prefix << "  (--ignore-memory-estimate launches it anyway)\n";
        } else if (i.state == app::Preflight::Passed) {
            // A launch despite the estimate, and the layout's warnings.
            if (i.summary && i.summary->code == app::PreflightCode::MemoryOverConfirmed)
                err << prefix << "warning: " << name << ": " << summary << "\n";
            if (i.check == app::Preflight::Layout)
                for (const app::PreflightDetail& d : i.details)
                    err << prefix << "warning: " << terminalSafe(preflightDetailWords(d)).toStdString() << "\n";
        }
    }
}

} // namespace sb::cli
