#include "run/launch_request.hpp"

#include "settings/run_settings.hpp"

#include "plan/plan_json.hpp"

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
    QString stem = request.name.isEmpty() ? QString::fromStdString(request.plan.name) : request.name;
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QString file = QDir(launchDir).filePath(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                                                  (stem.isEmpty() ? QString() : QStringLiteral("-") + stem.left(60)) +
                                                  QStringLiteral(".json"));
    if (const Status saved = savePlanFile(withAbsolutePaths(request.plan, base), file.toStdString()); !saved.ok()) {
        out.writeProblem = launch::RunConfigProblem{launch::RunConfigCode::PlanWrite, {saved.message()}};
        return out;
    }
    out.planFile = file;

    launch::RunConfig c;
    c.planPath = file;
    c.name = request.name;
    c.maxRestarts = request.maxRestarts;
    c.resumeFrom = request.resumeFrom;
    c.initFrom = request.initFrom;
    c.parentRun = request.parentRun;
    c.target = request.target;
    if (launch::HereCore* here = launch::hereCore(c.target)) {
        here->corePath = QFileInfo(localCore).absoluteFilePath();
        here->workdir = base;
        if (!c.initFrom.isEmpty()) c.initFrom = QDir(base).absoluteFilePath(c.initFrom);
    } else if (auto* remote = std::get_if<launch::SshTarget>(&c.target)) {
        remote->remoteCore = remoteCore;
        remote->remoteDir = remoteDir;
        remote->ssh = ssh;
    }
    out.result = launch::prepareLaunch(c);
    return out;
}

} // namespace sb::app
