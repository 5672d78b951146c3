#include "run/launch_request.hpp"

#include "settings/run_settings.hpp"

#include "plan/plan_json.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace sb::app {

Plan withAbsolutePaths(Plan plan, const QString& base)
{
    auto absolute = [&](std::string& path) {
        if (path.empty()) return;
        const QString p = QString::fromStdString(path);
        if (QFileInfo(p).isRelative()) path = QDir::cleanPath(QDir(base).absoluteFilePath(p)).toStdString();
    };
    absolute(plan.training.checkpoint.dir);
    if (plan.training.data.kind != DataConfig::Synthetic) absolute(plan.training.data.path);
    if (!plan.training.eval.path.empty()) absolute(plan.training.eval.path);
    return plan;
}

launch::DetachOptions detachOptions(const LaunchRequest& request, const launch::PreparedLaunch& prepared, const QString& storePath)
{
    launch::DetachOptions d = launch::defaultDetachOptions(prepared, storePath);
    const DetachChoice& choice = request.detachChoice;
    if (!choice.runRoot.isEmpty()) d.runRoot = choice.runRoot;
    if (!choice.supervise.isEmpty()) d.supervise = choice.supervise;
    if (!choice.headSshConfig.isEmpty()) d.headSshConfig = choice.headSshConfig;
    // The batch script runs the supervisor on a node, from another folder.
    if (request.config.backend() == launch::BackendKind::Slurm && d.supervise.contains(QLatin1Char('/')))
        d.supervise = QFileInfo(d.supervise).absoluteFilePath();
    return d;
}

PreparedRun prepareRun(const LaunchRequest& request, const launch::SshOptions& ssh, const QString& localCore,
                       const QString& remoteCore, const QString& remoteDir)
{
    PreparedRun out;
    const QString launchDir = request.launchDir.isEmpty() ? RunSettings::resolvedLaunchDir() : request.launchDir;
    const QString base = request.planDir.isEmpty() ? launchDir : request.planDir;
    if (!QDir().mkpath(launchDir)) {
        out.writeProblem = launch::RunConfigProblem{launch::RunConfigCode::LaunchDirCreate, {launch::textArg(launchDir)}};
        return out;
    }
    QString stem = request.config.name.isEmpty() ? QString::fromStdString(request.plan.name) : request.config.name;
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    // The time and this process: two front ends launching at once never share a file.
    const QString file = QDir(launchDir).filePath(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                                                  QStringLiteral("-%1").arg(QCoreApplication::applicationPid()) +
                                                  (stem.isEmpty() ? QString() : QStringLiteral("-") + stem.left(60)) +
                                                  QStringLiteral(".json"));
    // Relative paths are relative to the ranks' working folder: here (and on
    // Slurm's shared file system) that is `base`; over SSH the remote one.
    const bool here = launch::startsHere(request.config.target);
    if (const Status saved = savePlanFile(here ? withAbsolutePaths(request.plan, base) : request.plan, file.toStdString()); !saved.ok()) {
        out.writeProblem = launch::RunConfigProblem{launch::RunConfigCode::PlanWrite, {saved.message()}};
        return out;
    }
    out.planFile = file;

    launch::RunConfig c = request.config;
    c.planPath = file;
    if (launch::HereCore* core = launch::hereCore(c.target)) {
        // Slurm's nodes look a name without a folder up on their PATH.
        const bool onPath = c.backend() == launch::BackendKind::Slurm && !localCore.contains(QLatin1Char('/'));
        core->corePath = onPath ? localCore : QFileInfo(localCore).absoluteFilePath();
        core->workdir = base;
        if (!c.initFrom.isEmpty()) c.initFrom = QDir(base).absoluteFilePath(c.initFrom);
        if (!c.script.isEmpty()) c.script = QDir(base).absoluteFilePath(c.script);
    } else if (auto* remote = std::get_if<launch::SshTarget>(&c.target)) {
        remote->remoteCore = remoteCore;
        remote->remoteDir = remoteDir;
        remote->ssh = ssh;
    }
    out.result = launch::prepareLaunch(c);
    return out;
}

} // namespace sb::app
