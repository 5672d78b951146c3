#include "launch_checks.hpp"

#include "bounded_output.hpp"

#include "hf/hf_weights.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QStorageInfo>
#include <QTemporaryFile>
#include <QThread>

#include <algorithm>
#include <optional>

namespace sb::launch {

namespace {

// "1.5 GiB": the launcher's messages are English; a byte count is an argument already worded.
ProblemArg bytesText(quint64 b)
{
    return textArg(QLocale::c().formattedDataSize(static_cast<qint64>(std::min<quint64>(b, INT64_MAX)), 1));
}

quint64 meminfoField(const QByteArray& meminfo, const char* name)
{
    const QRegularExpression re(QStringLiteral("^%1:\\s+(\\d+) kB$").arg(QLatin1String(name)), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(meminfo));
    return m.hasMatch() ? m.captured(1).toULongLong() * 1024 : 0;
}

// Ranks on this machine: every rank of a local run, none of a remote one.
int localRanks(const PreparedLaunch& l) { return l.config.backend() == BackendKind::Local ? l.worldSize : 0; }

// The nearest folder of `path` that exists.
QString existingAncestor(QString path)
{
    while (!path.isEmpty() && !QFileInfo::exists(path)) {
        const QString parent = QFileInfo(path).path();
        if (parent == path) break;
        path = parent;
    }
    return path;
}

} // namespace

MachineFacts MachineFacts::ofThisMachine()
{
    MachineFacts f;
    f.cores = QThread::idealThreadCount(); // the CPUs this process may run on
    QFile meminfo(QStringLiteral("/proc/meminfo"));
    if (meminfo.open(QIODevice::ReadOnly)) {
        const QByteArray text = meminfo.readAll();
        f.memTotalBytes = meminfoField(text, "MemTotal");
        f.memAvailableBytes = meminfoField(text, "MemAvailable");
    }
    f.gpus = static_cast<int>(QDir(QStringLiteral("/dev")).entryList({QStringLiteral("nvidia[0-9]*")}, QDir::System).size());
    return f;
}

CoreBuild parseCoreVersion(const QString& output)
{
    CoreBuild b;
    const QString line = output.trimmed().section(QLatin1Char('\n'), 0, 0);
    if (!line.startsWith(QLatin1String("shardbench-core "))) return b;
    b.text = line;
    if (line.contains(QLatin1String("CUDA and NCCL"))) b.cuda = b.known = true;
    else if (line.contains(QLatin1String("CPU and Gloo"))) b.known = true;
    return b;
}

CoreBuild probeCoreBuild(const QString& corePath)
{
    QProcess p;
    p.setProgram(corePath);
    p.setArguments({QStringLiteral("--version")});
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start();
    if (!p.waitForStarted(10000)) return {};
    const BoundedOutput out = readBoundedOutput(p, kMaxCoreVersionBytes, 10000);
    if (out.outcome == BoundedOutput::TooLong) {
        CoreBuild b;
        b.outputTooLong = true;
        return b;
    }
    if (out.outcome != BoundedOutput::Finished) return {};
    return parseCoreVersion(QString::fromUtf8(out.out));
}

RunConfigProblem MemoryVerdict::problem(bool ignored) const
{
    using C = RunConfigCode;
    const C code = limitedByThisMachine ? (ignored ? C::MemoryOverHereIgnored : C::MemoryOverHere)
                                        : (ignored ? C::MemoryOverDeviceIgnored : C::MemoryOverDevice);
    return {code, {worstRank, bytesText(peakBytes), bytesText(capacityBytes)}};
}

MemoryVerdict memoryVerdict(const PreparedLaunch& l, const MachineFacts& m)
{
    MemoryVerdict v;
    v.peakBytes = l.estimatedPeakBytes;
    v.worstRank = l.estimatedWorstRank;
    v.capacityBytes = l.deviceMemoryBytes;
    // CPU ranks on this machine share its memory: what the kernel can give
    // without swapping (MemAvailable), divided among them.
    const int here = localRanks(l);
    if (!l.cuda && here > 0 && m.memAvailableBytes > 0) {
        const quint64 share = m.memAvailableBytes / static_cast<quint64>(here);
        if (share < v.capacityBytes) {
            v.capacityBytes = share;
            v.limitedByThisMachine = true;
        }
    }
    return v;
}

std::optional<RunConfigProblem> checkpointFolderProblem(const QString& dir, quint64 bytes)
{
    using C = RunConfigCode;
    if (!QDir().mkpath(dir)) {
        const QString ancestor = existingAncestor(dir);
        return RunConfigProblem{QFileInfo(ancestor).isDir() ? C::CheckpointDirNotWritable : C::CheckpointDirNotFolder,
                                {textArg(dir), textArg(ancestor)}};
    }
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".shardbench-write-test-XXXXXX")));
    if (!probe.open() || probe.write("x", 1) != 1 || !probe.flush())
        return RunConfigProblem{C::CheckpointDirUnwritable, {textArg(dir), textArg(probe.errorString())}};
    const QStorageInfo storage(dir);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && static_cast<quint64>(storage.bytesAvailable()) < bytes)
        return RunConfigProblem{C::CheckpointDirFull,
                                {textArg(dir), bytesText(static_cast<quint64>(storage.bytesAvailable())), bytesText(bytes)}};
    return std::nullopt;
}

Status checkInitialWeights(const PreparedLaunch& l)
{
    const LoadedPlan plan = validateLoaded(planFromString(l.planJson.toStdString()));
    if (!plan.tree) return Status::error("the plan has no model to check them against");
    return hf::openWeightsFor(*plan.tree, plan.plan.model, l.config.initFrom.toStdString()).status();
}

LaunchCheckResult checkLaunchTarget(const PreparedLaunch& l, const LaunchCheckOptions& options, const MachineFacts& m,
                                    const CoreBuild& core)
{
    LaunchCheckResult r;
    if (options.checkMemory) {
        const MemoryVerdict v = memoryVerdict(l, m);
        if (!v.fits()) (options.ignoreMemoryEstimate ? r.warnings : r.errors).push_back(v.problem(options.ignoreMemoryEstimate));
    }
    // The core's build: local and Slurm runs start the binary this machine sees.
    if (const HereCore* h = hereCore(l.config.target); h && l.cuda && core.known && !core.cuda)
        r.errors.push_back({RunConfigCode::CoreWithoutCuda, {textArg(h->corePath), textArg(core.text)}});
    if (const HereCore* h = hereCore(l.config.target); h && core.outputTooLong)
        r.errors.push_back({RunConfigCode::CoreVersionTooLong, {textArg(h->corePath), textArg(byteLimitText(kMaxCoreVersionBytes))}});

    const int here = localRanks(l);
    if (here > 0 && l.cuda && m.gpus >= 0 && here > m.gpus)
        r.errors.push_back({RunConfigCode::TooFewGpus, {here, m.gpus}});
    if (here > 0 && !l.cuda && m.cores > 0 && here > m.cores * kMaxRanksPerCore)
        r.errors.push_back({RunConfigCode::TooManyRanks, {here, m.cores, kMaxRanksPerCore}});
    else if (here > 0 && !l.cuda && m.cores > 0 && here > m.cores)
        r.warnings.push_back({RunConfigCode::RanksShareCores, {here, m.cores}});

    // The initial weights, where this machine sees the files the core will read:
    // their names, shapes and dtypes against the plan's model (headers only).
    // A script of the user's builds a model of its own: its weights are its own business.
    if (hereCore(l.config.target) && !l.config.initFrom.isEmpty() && l.config.runsThePlansModel())
        if (const Status weights = checkInitialWeights(l); !weights)
            r.errors.push_back({RunConfigCode::InitFromWeights, {textArg(qtMessage(weights))}});

    // Last, and only when everything else passed: it creates the folder.
    const LocalTarget* local = std::get_if<LocalTarget>(&l.config.target);
    if (r.ok() && local && !l.checkpointDir.isEmpty()) {
        const QString workdir = local->workdir.isEmpty() ? QDir::currentPath() : local->workdir;
        const QString dir = QDir::cleanPath(QDir(workdir).absoluteFilePath(l.checkpointDir));
        if (std::optional<RunConfigProblem> problem = checkpointFolderProblem(dir, l.checkpointBytes)) r.errors.push_back(*problem);
    }
    return r;
}

} // namespace sb::launch
