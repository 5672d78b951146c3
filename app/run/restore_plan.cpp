#include "run/restore_plan.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "launch/prepared_launch.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFileInfo>

namespace sb::app {

namespace {

RestoreSource readDcpSource(const QString& checkpointDir, const QString& planJson)
{
    RestoreSource s;
    s.dcp = true;
    s.step = launch::checkpointFolderStep(checkpointDir);
    if (s.step < 0) {
        s.error = QStringLiteral("%1: a DCP checkpoint's folder is named step-NNNNNN").arg(checkpointDir);
        return s;
    }
    s.runUid = QFileInfo(checkpointDir).absoluteDir().dirName();
    if (planJson.isEmpty()) {
        s.error = QStringLiteral("%1 is a DCP checkpoint, which carries no plan: restore it from the run that saved it").arg(checkpointDir);
        return s;
    }
    const PlanReadResult plan = planFromString(planJson.toStdString());
    if (!plan.ok()) s.error = QStringLiteral("the plan of the run that saved %1 cannot be read").arg(checkpointDir);
    s.plan = plan.plan;
    return s;
}

} // namespace

void runAsBefore(launch::RunConfig& config, const store::RunRow& parent)
{
    if (parent.engine != QLatin1String(launch::engineName(launch::Engine::PyTorch))) return;
    config.engine = launch::Engine::PyTorch;
    config.script = parent.script;
    config.scriptArgs = parent.scriptArgs;
    if (!parent.python.isEmpty()) config.python = parent.python;
}

RestoreSource readRestoreSource(const QString& checkpointDir, const QString& fallbackPlanJson)
{
    if (launch::isDcpCheckpoint(checkpointDir)) return readDcpSource(checkpointDir, fallbackPlanJson);
    RestoreSource s;
    const Result<ckpt::CheckpointIndex> read = ckpt::readIndex(checkpointDir.toStdString());
    if (!read) {
        s.error = QString::fromStdString(read.error());
        if (!fallbackPlanJson.isEmpty()) s.plan = planFromString(fallbackPlanJson.toStdString()).plan;
        return s;
    }
    const ckpt::CheckpointIndex& index = read.value();
    const PlanReadResult plan = planFromJson(index.plan);
    s.plan = plan.ok() || fallbackPlanJson.isEmpty() ? plan.plan : planFromString(fallbackPlanJson.toStdString()).plan;
    s.step = static_cast<int>(index.step);
    s.worldSize = index.worldSize;
    s.runUid = QString::fromStdString(index.runId);
    return s;
}

Plan restoredPlan(const Plan& plan, const RestoreChoice& c)
{
    Plan p = plan;
    const int nodes = std::max(1, c.nodes);
    p.mesh.nodes = nodes;
    p.mesh.procsPerNode = std::max(1, c.worldSize / nodes);
    const int world = p.mesh.worldSize();
    if (p.mesh.replicate < 1 || world % p.mesh.replicate != 0) p.mesh.replicate = 1;
    p.training.steps = c.steps;
    p.training.checkpoint.dir = c.checkpointDir.toStdString();
    return p;
}

QString defaultRestoreCheckpointDir(const QString& checkpointDir, const QString& runUid)
{
    // .../ckpt/<run uid>/step-000020 -> .../ckpt (format 1: .../ckpt/step-000020 -> .../ckpt)
    const QDir runFolder = QFileInfo(checkpointDir).absoluteDir();
    if (!runUid.isEmpty() && runFolder.dirName() == runUid) return QFileInfo(runFolder.absolutePath()).absolutePath();
    return runFolder.absolutePath();
}

} // namespace sb::app
