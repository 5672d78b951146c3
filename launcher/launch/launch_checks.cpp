#include "launch_checks.hpp"

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

namespace sb::launch {

namespace {

QString bytesText(quint64 b) { return QLocale::c().formattedDataSize(static_cast<qint64>(std::min<quint64>(b, INT64_MAX)), 1); }

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
    p.start();
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished(1000);
        return {};
    }
    return parseCoreVersion(QString::fromUtf8(p.readAllStandardOutput()));
}

QString MemoryVerdict::describe() const
{
    const QString where = limitedByThisMachine ? QStringLiteral("this machine's available memory shared by its ranks")
                                               : QStringLiteral("the plan's device memory");
    return QStringLiteral("the estimated peak of rank %1 is %2 but a rank has %3 (%4)")
        .arg(worstRank)
        .arg(bytesText(peakBytes), bytesText(capacityBytes), where);
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

QString checkpointFolderProblem(const QString& dir, quint64 bytes)
{
    if (!QDir().mkpath(dir)) {
        const QString ancestor = existingAncestor(dir);
        return QStringLiteral("the checkpoint folder %1 cannot be created (%2 %3)")
            .arg(dir, ancestor, QFileInfo(ancestor).isDir() ? QStringLiteral("is not writable") : QStringLiteral("is not a folder"));
    }
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".shardbench-write-test-XXXXXX")));
    if (!probe.open() || probe.write("x", 1) != 1 || !probe.flush())
        return QStringLiteral("the checkpoint folder %1 is not writable: %2").arg(dir, probe.errorString());
    const QStorageInfo storage(dir);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && static_cast<quint64>(storage.bytesAvailable()) < bytes)
        return QStringLiteral("the checkpoint folder %1 has %2 free but one checkpoint takes about %3")
            .arg(dir, bytesText(static_cast<quint64>(storage.bytesAvailable())), bytesText(bytes));
    return {};
}

LaunchCheckResult checkLaunchTarget(const PreparedLaunch& l, const LaunchCheckOptions& options, const MachineFacts& m,
                                    const CoreBuild& core)
{
    LaunchCheckResult r;
    if (options.checkMemory) {
        const MemoryVerdict v = memoryVerdict(l, m);
        if (!v.fits()) {
            if (options.ignoreMemoryEstimate) r.warnings << v.describe() + QStringLiteral("; launched anyway (--ignore-memory-estimate)");
            else r.errors << v.describe() + QStringLiteral(": it would run out of memory (--ignore-memory-estimate launches it anyway)");
        }
    }
    // The core's build: local and Slurm runs start the binary this machine sees.
    if (const HereCore* h = hereCore(l.config.target); h && l.cuda && core.known && !core.cuda)
        r.errors << QStringLiteral("the plan runs on cuda but %1 was built without CUDA (%2)").arg(h->corePath, core.text);

    const int here = localRanks(l);
    if (here > 0 && l.cuda && m.gpus >= 0 && here > m.gpus)
        r.errors << QStringLiteral("the plan runs %1 CUDA rank(s) on this machine, which has %2 GPU(s)").arg(here).arg(m.gpus);
    if (here > 0 && !l.cuda && m.cores > 0 && here > m.cores * kMaxRanksPerCore)
        r.errors << QStringLiteral("the plan runs %1 ranks on this machine, which has %2 core(s): at most %3 ranks per core can make progress")
                        .arg(here)
                        .arg(m.cores)
                        .arg(kMaxRanksPerCore);
    else if (here > 0 && !l.cuda && m.cores > 0 && here > m.cores)
        r.warnings << QStringLiteral("%1 ranks share %2 core(s): each step will be slow").arg(here).arg(m.cores);

    // Last, and only when everything else passed: it creates the folder.
    const LocalTarget* local = std::get_if<LocalTarget>(&l.config.target);
    if (r.ok() && local && !l.checkpointDir.isEmpty()) {
        const QString workdir = local->workdir.isEmpty() ? QDir::currentPath() : local->workdir;
        const QString dir = QDir::cleanPath(QDir(workdir).absoluteFilePath(l.checkpointDir));
        const QString problem = checkpointFolderProblem(dir, l.checkpointBytes);
        if (!problem.isEmpty()) r.errors << problem;
    }
    return r;
}

} // namespace sb::launch
