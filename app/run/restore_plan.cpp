#include "run/restore_plan.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFileInfo>

namespace sb::app {

RestoreSource readRestoreSource(const QString& checkpointDir, const QString& fallbackPlanJson)
{
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
