#include "slurm_test_cluster.hpp"

#include "launcher_test_support.hpp"

#include <QFile>
#include <QStandardPaths>
#include <QSysInfo>

#include <unistd.h>

namespace sb::test {

namespace {

QString clusterScript() { return sourceDir() + QStringLiteral("/tests/launcher/support/slurm_cluster.sh"); }

QStringList squeueColumn(const char* format)
{
    QByteArray out;
    runProgram(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QLatin1String(format)}, &out, 10000);
    return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

SlurmTestCluster::~SlurmTestCluster() { stop(); }

QString SlurmTestCluster::skipReason()
{
    if (::geteuid() != 0) return QStringLiteral("the Slurm suites need root (slurmd starts tasks as any user)");
    const QStringList dirs = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"), QStringLiteral("/sbin")};
    for (const char* p : {"slurmctld", "slurmd", "srun", "sbatch", "scancel", "squeue", "sinfo", "munged", "munge"}) {
        const QString name = QLatin1String(p);
        if (QStandardPaths::findExecutable(name).isEmpty() && QStandardPaths::findExecutable(name, dirs).isEmpty())
            return name + QStringLiteral(" is not installed: apt-get install slurm-wlm munge");
    }
    return {};
}

QString SlurmTestCluster::start()
{
    if (!dir_.isValid()) return QStringLiteral("no temporary folder");
    QByteArray out;
    const int code = runProgram(QStringLiteral("bash"), {clusterScript(), QStringLiteral("start"), dir_.path()}, &out, 60000);
    started_ = true;
    const QString conf = dir_.filePath(QStringLiteral("slurm.conf"));
    if (code != 0 || !QFile::exists(conf)) return QString::fromUtf8(out);
    qputenv("SLURM_CONF", conf.toUtf8());
    qunsetenv("SLURM_JOB_ID"); // never a step of an allocation around the test
    qunsetenv("SHARDBENCH_DB");
    return {};
}

void SlurmTestCluster::stop()
{
    if (!started_) return;
    started_ = false;
    QByteArray out;
    if (runProgram(QStringLiteral("bash"), {clusterScript(), QStringLiteral("stop"), dir_.path()}, &out, 30000) != 0)
        qWarning("stopping the cluster: %s", out.constData());
}

QString shortHostName() { return QSysInfo::machineHostName().section(QLatin1Char('.'), 0, 0); }

QStringList queuedJobNames() { return squeueColumn("%j"); }

QStringList queuedJobIds() { return squeueColumn("%i"); }

} // namespace sb::test
