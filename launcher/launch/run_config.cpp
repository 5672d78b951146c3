#include "run_config.hpp"

#include "printable.hpp"
#include "shell_quote.hpp"

namespace sb::launch {

QString backendName(BackendKind k)
{
    switch (k) {
    case BackendKind::Ssh: return QStringLiteral("ssh");
    case BackendKind::Slurm: return QStringLiteral("slurm");
    case BackendKind::Local: break;
    }
    return QStringLiteral("local");
}

QStringList SshOptions::validate() const
{
    QStringList e;
    if (connectTimeoutS < 1 || connectTimeoutS > 3600) e << QStringLiteral("the SSH connect timeout must be 1 to 3600 s");
    if (keepaliveS < 1 || keepaliveS > 3600) e << QStringLiteral("the SSH keepalive interval must be 1 to 3600 s");
    if (livenessTimeoutS <= keepaliveS || livenessTimeoutS > 3600)
        e << QStringLiteral("the SSH liveness timeout must exceed the keepalive interval and be at most 3600 s");
    if (connectTries < 1 || connectTries > 20) e << QStringLiteral("the number of SSH connect tries must be 1 to 20");
    return e;
}

QStringList RunConfig::validate() const
{
    QStringList e;
    auto noNul = [&](const QString& v, const char* what) {
        if (v.contains(QChar(0))) e << QStringLiteral("%1 contains a NUL character").arg(QLatin1String(what));
    };
    if (planPath.isEmpty()) e << QStringLiteral("no plan file given");
    if (maxRestarts < 0 || maxRestarts > 1000) e << QStringLiteral("max restarts must be 0 to 1000");
    if (masterPort < 0 || masterPort > 65535) e << QStringLiteral("the master port must be 1 to 65535");
    if (stopGraceMs < 0 || stopGraceMs > 60000) e << QStringLiteral("the stop grace must be 0 to 60000 ms");
    if (stopDeadlineMs < stopGraceMs + 500) e << QStringLiteral("the stop deadline must exceed the grace by 500 ms");
    if (name.size() > 200) e << QStringLiteral("the run name is longer than 200 characters");
    noNul(name, "the run name");
    noNul(resumeFrom, "the resume folder");
    if (!masterAddr.isEmpty())
        if (QString bad = checkHostName(masterAddr); !bad.isEmpty()) e << QStringLiteral("--master-addr: ") + bad;
    for (auto it = extraEnv.begin(); it != extraEnv.end(); ++it) {
        if (!isValidEnvName(it.key().toUtf8()))
            e << QStringLiteral("\"%1\" is not a valid environment variable name").arg(printable(it.key()));
        noNul(it.value(), "an environment value");
    }
    if (backend == BackendKind::Local || backend == BackendKind::Slurm) {
        if (!hosts.isEmpty()) e << QStringLiteral("a %1 run takes no hosts").arg(backendName(backend));
        if (corePath.isEmpty()) e << QStringLiteral("no shardbench-core path given");
        noNul(corePath, "the shardbench-core path");
        noNul(workdir, "the working folder");
    }
    if (backend == BackendKind::Slurm) {
        // srun reads options up to the program: a core path starting with '-' would be one.
        if (corePath.startsWith(QLatin1Char('-'))) e << QStringLiteral("the shardbench-core path must not start with '-'");
        e << slurm.validate();
    } else if (backend == BackendKind::Ssh) {
        if (hosts.isEmpty()) e << QStringLiteral("an SSH run needs at least one host");
        for (const HostSpec& h : hosts)
            if (QString bad = checkHostName(h.name); !bad.isEmpty()) e << bad;
        if (remoteCore.isEmpty()) e << QStringLiteral("no remote shardbench-core given");
        // `env NAME=VALUE... CORE`: env would take a core path with '=' for
        // one more variable, and one starting with '-' for an option.
        if (remoteCore.contains(QLatin1Char('=')) || remoteCore.startsWith(QLatin1Char('-')))
            e << QStringLiteral("the remote core path must not contain '=' or start with '-'");
        if (remoteDir.isEmpty()) e << QStringLiteral("no remote run folder given");
        noNul(remoteCore, "the remote core path");
        noNul(remoteDir, "the remote run folder");
        noNul(remoteWorkdir, "the remote working folder");
        e << ssh.validate();
    }
    return e;
}

} // namespace sb::launch
