#include "restore_plan.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "plan/plan_json.hpp"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace sb::gui {

RestoreSource readRestoreSource(const QString& checkpointDir, const QString& fallbackPlanJson)
{
    RestoreSource s;
    ckpt::CheckpointIndex index;
    const std::string error = ckpt::readIndex(checkpointDir.toStdString(), index);
    if (!error.empty()) {
        s.error = QString::fromStdString(error);
        if (!fallbackPlanJson.isEmpty()) s.plan = planFromString(fallbackPlanJson.toStdString()).plan;
        return s;
    }
    const PlanReadResult read = planFromJson(index.plan);
    s.plan = read.ok() || fallbackPlanJson.isEmpty() ? read.plan : planFromString(fallbackPlanJson.toStdString()).plan;
    s.step = static_cast<int>(index.step);
    s.worldSize = index.worldSize;
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

QString defaultRestoreCheckpointDir(const QString& checkpointDir, int step)
{
    // .../ckpt/step-000020 -> .../ckpt-resumed-20-<time>
    const QFileInfo dir(checkpointDir);
    const QFileInfo root(dir.absolutePath());
    return root.absolutePath() + QLatin1Char('/') + root.fileName() +
           QStringLiteral("-resumed-%1-%2").arg(step).arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

} // namespace sb::gui
