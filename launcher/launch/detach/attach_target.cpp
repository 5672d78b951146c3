#include "attach_target.hpp"

#include "protocol/json_fields.hpp"

#include <algorithm>
#include <limits>

namespace sb::launch {

QString AttachTarget::describe() const
{
    if (transport == Transport::Local) return QStringLiteral("this machine: ") + runDir;
    if (transport == Transport::Slurm) return QStringLiteral("Slurm job %1: %2").arg(slurmJob).arg(runDir);
    return host.name + QLatin1Char(':') + runDir;
}

namespace {

std::string text(const QString& s) { return s.toStdString(); }

// Typed reads of the record (protocol/json_fields.hpp): a missing key or one
// of another type gives the fallback; numbers saturate, never convert out of range.
QString textOf(const json::Value& o, const char* key) { return QString::fromStdString(protocol::optString(o, key).value_or(std::string())); }

qint64 numberOf(const json::Value& o, const char* key, qint64 fallback) { return protocol::optInt(o, key).value_or(fallback); }

int intOf(const json::Value& o, const char* key, int fallback)
{
    return static_cast<int>(std::clamp<qint64>(numberOf(o, key, fallback), std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

} // namespace

QString AttachTarget::toJson() const
{
    json::Value o = json::Value::object();
    o.set("transport", transport == Transport::Local ? "local" : transport == Transport::Slurm ? "slurm" : "ssh");
    if (transport == Transport::Slurm) o.set("slurm_job", static_cast<long long>(slurmJob));
    o.set("dir", text(runDir));
    o.set("supervise", text(supervise));
    if (supervisorPid > 0) o.set("supervisor_pid", static_cast<long long>(supervisorPid));
    if (supervisorStartTime >= 0) o.set("supervisor_start_time", static_cast<long long>(supervisorStartTime));
    if (transport == Transport::Ssh) {
        o.set("host", text(host.name));
        json::Value s = json::Value::object();
        s.set("config", text(ssh.configFile));
        s.set("known_hosts", text(ssh.knownHostsFile));
        s.set("ssh_dir", text(ssh.sshDir));
        json::Value ids = json::Value::array();
        for (const QString& id : ssh.identityFiles) ids.push(text(id));
        s.set("identities", std::move(ids));
        s.set("connect_timeout", ssh.connectTimeoutS);
        s.set("keepalive", ssh.keepaliveS);
        s.set("liveness_timeout", ssh.livenessTimeoutS);
        o.set("ssh", std::move(s));
    }
    return QString::fromStdString(o.dump());
}

Result<AttachTarget> AttachTarget::fromJson(const QString& record)
{
    const json::ParseResult parsed = json::parse(record.toStdString());
    if (!parsed || !parsed.value->isObject()) return qtError(QStringLiteral("the run's attach record is not a JSON object"));
    const json::Value& o = *parsed.value;
    AttachTarget t;
    const QString transport = textOf(o, "transport");
    if (transport == QLatin1String("ssh")) t.transport = Transport::Ssh;
    else if (transport == QLatin1String("slurm")) t.transport = Transport::Slurm;
    else if (transport != QLatin1String("local")) return qtError(QStringLiteral("unknown transport \"%1\"").arg(transport));
    t.runDir = textOf(o, "dir");
    t.supervise = textOf(o, "supervise");
    if (t.runDir.isEmpty() || t.supervise.isEmpty()) return qtError(QStringLiteral("the run's attach record names no run directory"));
    t.supervisorPid = numberOf(o, "supervisor_pid", -1);
    t.supervisorStartTime = numberOf(o, "supervisor_start_time", -1);
    if (t.supervisorPid <= 1 || t.supervisorPid > std::numeric_limits<int>::max()) t.supervisorPid = -1;
    if (t.supervisorPid < 0 || t.supervisorStartTime < 0) t.supervisorStartTime = -1;
    if (t.transport == Transport::Slurm) {
        t.slurmJob = numberOf(o, "slurm_job", -1);
        if (t.slurmJob <= 0) return qtError(QStringLiteral("the run's attach record names no Slurm job"));
    }
    if (t.transport == Transport::Ssh) {
        t.host.name = textOf(o, "host");
        if (const Status bad = checkHostName(t.host.name); !bad) return bad;
        const json::Value* sv = o.find("ssh");
        const json::Value s = sv && sv->isObject() ? *sv : json::Value::object();
        t.ssh.configFile = textOf(s, "config");
        t.ssh.knownHostsFile = textOf(s, "known_hosts");
        t.ssh.sshDir = textOf(s, "ssh_dir");
        if (const json::Value* ids = s.find("identities"); ids && ids->isArray())
            for (const json::Value& v : ids->asArray())
                t.ssh.identityFiles << (v.isString() ? QString::fromStdString(v.asString()) : QString());
        t.ssh.connectTimeoutS = intOf(s, "connect_timeout", t.ssh.connectTimeoutS);
        t.ssh.keepaliveS = intOf(s, "keepalive", t.ssh.keepaliveS);
        t.ssh.livenessTimeoutS = intOf(s, "liveness_timeout", t.ssh.livenessTimeoutS);
    }
    return t;
}

QByteArrayList superviseCommand(const AttachTarget& t, const QByteArrayList& args)
{
    QByteArrayList argv = {t.supervise.toUtf8()};
    argv << args.mid(0, 1) << t.runDir.toUtf8() << args.mid(1);
    return argv;
}

} // namespace sb::launch
