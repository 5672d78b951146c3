#include "prepared_launch.hpp"

#include "estimate/estimate.hpp"
#include "export/fsdp2_script.hpp"
#include "plan/plan_json.hpp"
#include "protocol/run_dir_layout.hpp"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>

namespace sb::launch {

namespace {
QByteArray num(qint64 v) { return QByteArray::number(v); }
} // namespace

const RankSlot* PreparedLaunch::slotOf(int rank) const
{
    for (const RankSlot& s : ranks)
        if (s.rank == rank) return &s;
    return nullptr;
}

QList<int> PreparedLaunch::ranksOn(int hostIndex) const
{
    QList<int> out;
    for (const RankSlot& s : ranks)
        if (s.hostIndex == hostIndex) out << s.rank;
    return out;
}

QString newRunUid()
{
    const quint32 bits = QRandomGenerator::system()->generate() & 0xffffffu;
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
           QStringLiteral("-%1").arg(bits, 6, 16, QLatin1Char('0'));
}

PrepareResult prepareLaunch(const RunConfig& config)
{
    PrepareResult r;
    using C = RunConfigCode;
    r.errors = runConfigProblems(config);
    if (!r.ok()) return r;
    PreparedLaunch& l = r.launch;
    l.config = config;
    l.uid = newRunUid();

    const QFileInfo info(config.planPath);
    QFile f(config.planPath);
    if (!info.exists()) {
        r.errors.push_back({C::PlanNotFound, {textArg(config.planPath)}});
        return r;
    }
    if (info.isDir() || !f.open(QIODevice::ReadOnly)) {
        r.errors.push_back({C::PlanUnreadable, {textArg(config.planPath), textArg(f.errorString())}});
        return r;
    }
    if (f.size() > 64 * 1024 * 1024) {
        r.errors.push_back({C::PlanTooLarge, {textArg(config.planPath)}});
        return r;
    }
    l.planJson = f.readAll();
    l.planPath = info.absoluteFilePath();
    // One read: what is validated is exactly what the hosts receive.
    const LoadedPlan plan = validateLoaded(planFromString(l.planJson.toStdString()));
    for (const Problem& p : plan.problems) {
        RunConfigProblem found{C::PlanProblem, {textArg(config.planPath), formatProblem(p)}};
        (p.severity == Severity::Error ? r.errors : r.warnings).push_back(std::move(found));
    }
    if (!r.ok()) return r;
    l.planName = QString::fromStdString(plan.plan.name);
    l.planSteps = plan.plan.training.steps;
    l.planCheckpoints = !plan.plan.training.checkpoint.dir.empty();
    l.checkpointDir = QString::fromStdString(plan.plan.training.checkpoint.dir);
    l.deviceMemoryBytes = plan.plan.mesh.deviceMemoryBytes;
    if (plan.tree) {
        const Estimate e = estimateMemory(plan.plan, *plan.tree);
        l.estimatedPeakBytes = e.peakBytes();
        l.estimatedWorstRank = e.worstRank;
        quint64 perRank = 0; // the largest shard of state a rank writes
        for (const RankEstimate& re : e.ranks)
            perRank = std::max<quint64>(perRank, re.atPeak[MemCategory::ShardedParams] + re.atPeak[MemCategory::OptimizerState] + re.hostBytes);
        l.checkpointBytes = perRank * static_cast<quint64>(std::max(1, e.shardSize));
    }
    if (config.engine == Engine::PyTorch && config.script.isEmpty() && plan.tree)
        l.scriptText = QByteArray::fromStdString(exportFsdp2Script(plan.plan, *plan.tree));
    // A script of the user's that runs here (or on Slurm's shared folders) must be here.
    if (config.engine == Engine::PyTorch && !config.script.isEmpty() && hereCore(config.target) && !QFileInfo(config.script).isFile())
        r.errors.push_back({C::ScriptNotFound, {textArg(config.script)}});
    // A PyTorch run resumes from a DCP checkpoint (SHARDBENCH_RESUME_FROM); one here is checked here.
    if (config.engine == Engine::PyTorch && !config.resumeFrom.isEmpty() && hereCore(config.target) && !isDcpCheckpoint(config.resumeFrom))
        r.errors.push_back({C::ResumeNotDcp, {textArg(config.resumeFrom)}});
    l.worldSize = plan.plan.mesh.worldSize();
    l.nodes = plan.plan.mesh.nodes;
    l.procsPerNode = plan.plan.mesh.procsPerNode;
    l.cuda = plan.plan.mesh.device == Device::Cuda;
    l.planSummary = QStringLiteral("%1, %2 units, world %3")
                        .arg(QString::fromStdString(plan.plan.model.preset))
                        .arg(plan.plan.units.size())
                        .arg(l.worldSize);

    if (std::holds_alternative<LocalTarget>(config.target)) {
        l.hosts = {HostSpec{QStringLiteral("localhost"), l.worldSize}};
    } else if (std::holds_alternative<SlurmTarget>(config.target)) {
        if (QStandardPaths::findExecutable(QStringLiteral("srun")).isEmpty())
            r.errors.push_back({C::SrunMissing, {}});
        // srun --distribution=block puts ranks node by node, as the mesh expects.
        for (int n = 0; n < l.nodes; ++n) l.hosts << HostSpec{unallocatedNodeName(n), l.procsPerNode};
    } else {
        l.hosts = sshHosts(config.target);
        const int perNode = plan.plan.mesh.procsPerNode;
        for (HostSpec& h : l.hosts)
            if (h.slots == 0) h.slots = perNode;
    }
    int total = 0;
    for (const HostSpec& h : l.hosts) total += h.slots;
    if (total != l.worldSize) {
        QStringList parts;
        for (const HostSpec& h : l.hosts) parts << QStringLiteral("%1 (%2)").arg(h.name).arg(h.slots);
        r.errors.push_back({C::SlotsMismatch, {total, textArg(parts.join(QStringLiteral(", "))), l.worldSize, plan.plan.mesh.nodes,
                                               plan.plan.mesh.procsPerNode}});
        return r;
    }
    if (config.backend() == BackendKind::Ssh && l.hosts.size() != plan.plan.mesh.nodes)
        r.warnings.push_back({C::NodesMismatch, {plan.plan.mesh.nodes, l.hosts.size()}});
    int rank = 0;
    for (int h = 0; h < l.hosts.size(); ++h)
        for (int local = 0; local < l.hosts[h].slots; ++local)
            l.ranks << RankSlot{rank++, local, l.hosts[h].slots, h};
    return r;
}

QString unallocatedNodeName(int nodeIndex) { return QStringLiteral("(slurm node %1)").arg(nodeIndex); }

Environment rankEnvironment(const PreparedLaunch& launch, const RankSlot& slot, const AttemptSpec& attempt)
{
    Environment env = {
        {"RANK", num(slot.rank)},
        {"WORLD_SIZE", num(launch.worldSize)},
        {"LOCAL_RANK", num(slot.localRank)},
        {"LOCAL_WORLD_SIZE", num(slot.localWorld)},
        {"GROUP_RANK", num(slot.hostIndex)},
        {"GROUP_WORLD_SIZE", num(launch.hosts.size())},
        {"MASTER_ADDR", attempt.masterAddr.toUtf8()},
        {"MASTER_PORT", num(attempt.masterPort)},
    };
    return env + runEnvironment(launch, attempt);
}

Environment runEnvironment(const PreparedLaunch& launch, const AttemptSpec& attempt)
{
    Environment env = {
        {"TORCHELASTIC_RUN_ID", launch.uid.toUtf8()},
        {"TORCHELASTIC_RESTART_COUNT", num(attempt.attempt)},
        {"TORCHELASTIC_MAX_RESTARTS", num(launch.config.maxRestarts)},
        {"SB_RUN_NAME", launch.config.name.toUtf8()},
    };
    if (launch.config.engine == Engine::PyTorch) {
        env.append(qMakePair(QByteArray("SHARDBENCH_RUN_ID"), launch.uid.toUtf8())); // shardbench_report.py's run id
        env.append(qMakePair(QByteArray("PYTHONUNBUFFERED"), QByteArray("1")));      // each event line as it is printed
        // Every attempt: the script resumes from its own newest checkpoint, and from this one while it has none.
        if (!launch.config.resumeFrom.isEmpty())
            env.append(qMakePair(QByteArray("SHARDBENCH_RESUME_FROM"), launch.config.resumeFrom.toUtf8()));
    }
    for (auto it = launch.config.extraEnv.begin(); it != launch.config.extraEnv.end(); ++it)
        env.append({it.key().toUtf8(), it.value().toUtf8()});
    return env;
}

QByteArrayList coreArguments(const PreparedLaunch& launch, const QString& planPath, const AttemptSpec& attempt)
{
    QByteArrayList args = {"--plan", planPath.toUtf8(), "--run-id", launch.uid.toUtf8()};
    if (!attempt.resumeDir.isEmpty()) args << QByteArray("--resume") << attempt.resumeDir.toUtf8();
    // Every attempt: one that resumes a checkpoint does not read them (the
    // core), and a detached run's supervisor passes these arguments as they are.
    if (!launch.config.initFrom.isEmpty()) args << QByteArray("--init-from") << launch.config.initFrom.toUtf8();
    return args;
}

bool isDcpCheckpoint(const QString& dir)
{
    return QFileInfo(dir + QLatin1String("/.metadata")).isFile() && !QFileInfo::exists(dir + QLatin1String("/index.json"));
}

int checkpointFolderStep(const QString& dir)
{
    static const QRegularExpression stepFolder(QStringLiteral("^step-(\\d{6,9})$"));
    const QRegularExpressionMatch m = stepFolder.match(QFileInfo(dir).fileName());
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QList<QPair<QString, QByteArray>> shippedFiles(const PreparedLaunch& launch)
{
    QList<QPair<QString, QByteArray>> files{{QLatin1String(protocol::kPlanFile), launch.planJson}};
    if (!launch.scriptText.isEmpty()) files.append({QLatin1String(kScriptFile), launch.scriptText});
    return files;
}

RankProgram rankProgram(const PreparedLaunch& launch, const QString& core, const QString& planPath, const AttemptSpec& attempt)
{
    if (launch.config.engine == Engine::Core) return {core, coreArguments(launch, planPath, attempt)};
    const QString script = launch.config.script.isEmpty()
                               ? planPath.left(planPath.lastIndexOf(QLatin1Char('/')) + 1) + QLatin1String(kScriptFile)
                               : launch.config.script;
    RankProgram p{launch.config.python, {script.toUtf8()}};
    for (const QString& a : launch.config.scriptArgs) p.arguments << a.toUtf8();
    if (!launch.config.initFrom.isEmpty()) p.arguments << QByteArray("--init-from") << launch.config.initFrom.toUtf8();
    return p;
}

} // namespace sb::launch
