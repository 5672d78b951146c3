#include "attach_target.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <limits>

namespace sb::launch {

QString AttachTarget::describe() const
{
    if (transport == Transport::Local) return QStringLiteral("this machine: ") + runDir;
    if (transport == Transport::Slurm) return QStringLiteral("Slurm job %1: %2").arg(slurmJob).arg(runDir);
    return host.name + QLatin1Char(':') + runDir;
}

QString AttachTarget::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("transport"), transport == Transport::Local   ? QStringLiteral("local")
                                          : transport == Transport::Slurm ? QStringLiteral("slurm")
                                                                          : QStringLiteral("ssh"));
    if (transport == Transport::Slurm) o.insert(QStringLiteral("slurm_job"), slurmJob);
    o.insert(QStringLiteral("dir"), runDir);
    o.insert(QStringLiteral("supervise"), supervise);
    if (supervisorPid > 0) o.insert(QStringLiteral("supervisor_pid"), supervisorPid);
    if (supervisorStartTime >= 0) o.insert(QStringLiteral("supervisor_start_time"), supervisorStartTime);
    if (transport == Transport::Ssh) {
        o.insert(QStringLiteral("host"), host.name);
        QJsonObject s;
        s.insert(QStringLiteral("config"), ssh.configFile);
        s.insert(QStringLiteral("known_hosts"), ssh.knownHostsFile);
        s.insert(QStringLiteral("ssh_dir"), ssh.sshDir);
        s.insert(QStringLiteral("identities"), QJsonArray::fromStringList(ssh.identityFiles));
        s.insert(QStringLiteral("connect_timeout"), ssh.connectTimeoutS);
        s.insert(QStringLiteral("keepalive"), ssh.keepaliveS);
        s.insert(QStringLiteral("liveness_timeout"), ssh.livenessTimeoutS);
        o.insert(QStringLiteral("ssh"), s);
    }
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString AttachTarget::fromJson(const QString& text, AttachTarget* out)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &err);
    if (!doc.isObject()) return QStringLiteral("the run's attach record is not a JSON object");
    const QJsonObject o = doc.object();
    AttachTarget t;
    const QString transport = o.value(QStringLiteral("transport")).toString();
    if (transport == QLatin1String("ssh")) t.transport = Transport::Ssh;
    else if (transport == QLatin1String("slurm")) t.transport = Transport::Slurm;
    else if (transport != QLatin1String("local")) return QStringLiteral("unknown transport \"%1\"").arg(transport);
    t.runDir = o.value(QStringLiteral("dir")).toString();
    t.supervise = o.value(QStringLiteral("supervise")).toString();
    if (t.runDir.isEmpty() || t.supervise.isEmpty()) return QStringLiteral("the run's attach record names no run directory");
    t.supervisorPid = static_cast<qint64>(o.value(QStringLiteral("supervisor_pid")).toDouble(-1));
    t.supervisorStartTime = static_cast<qint64>(o.value(QStringLiteral("supervisor_start_time")).toDouble(-1));
    if (t.supervisorPid <= 1 || t.supervisorPid > std::numeric_limits<int>::max()) t.supervisorPid = -1;
    if (t.supervisorPid < 0 || t.supervisorStartTime < 0) t.supervisorStartTime = -1;
    if (t.transport == Transport::Slurm) {
        t.slurmJob = static_cast<qint64>(o.value(QStringLiteral("slurm_job")).toDouble(-1));
        if (t.slurmJob <= 0) return QStringLiteral("the run's attach record names no Slurm job");
    }
    if (t.transport == Transport::Ssh) {
        t.host.name = o.value(QStringLiteral("host")).toString();
        const QString bad = checkHostName(t.host.name);
        if (!bad.isEmpty()) return bad;
        const QJsonObject s = o.value(QStringLiteral("ssh")).toObject();
        t.ssh.configFile = s.value(QStringLiteral("config")).toString();
        t.ssh.knownHostsFile = s.value(QStringLiteral("known_hosts")).toString();
        t.ssh.sshDir = s.value(QStringLiteral("ssh_dir")).toString();
        for (const QJsonValue& v : s.value(QStringLiteral("identities")).toArray()) t.ssh.identityFiles << v.toString();
        t.ssh.connectTimeoutS = s.value(QStringLiteral("connect_timeout")).toInt(t.ssh.connectTimeoutS);
        t.ssh.keepaliveS = s.value(QStringLiteral("keepalive")).toInt(t.ssh.keepaliveS);
        t.ssh.livenessTimeoutS = s.value(QStringLiteral("liveness_timeout")).toInt(t.ssh.livenessTimeoutS);
    }
    *out = t;
    return {};
}

QByteArrayList superviseCommand(const AttachTarget& t, const QByteArrayList& args)
{
    QByteArrayList argv = {t.supervise.toUtf8()};
    argv << args.mid(0, 1) << t.runDir.toUtf8() << args.mid(1);
    return argv;
}

} // namespace sb::launch
