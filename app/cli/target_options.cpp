#include "target_options.hpp"

#include "text_format.hpp"

#include "protocol/run_limits.hpp"

#include <QCoreApplication>
#include <QFileInfo>

namespace sb::cli {

const char* const kTargetUsage =
    "[--local | --slurm | --hosts HOSTFILE | --host HOST[:SLOTS] ...] [--core PATH] [--workdir DIR]\n"
    "       [--remote-core PATH] [--remote-dir DIR] [--remote-workdir DIR] [--accept-new-host-key]\n"
    "       [--ssh-config FILE] [--known-hosts FILE] [--ssh-dir DIR] [--identity KEYFILE ...] [--connect-timeout S] [--connect-tries N]\n"
    "       [--partition P] [--account A] [--time HH:MM:SS] [--slurm-arg --OPTION=VALUE ...]";

namespace {

// Options that only one kind of run takes.
const char* const kSshOptions[] = {"--remote-core", "--remote-dir", "--remote-workdir", "--accept-new-host-key",
                                   "--ssh-config", "--known-hosts", "--ssh-dir", "--identity", "--connect-timeout", "--connect-tries"};
const char* const kSlurmOptions[] = {"--partition", "--account", "--time", "--slurm-arg"};

TargetError misuse(const QString& sentence) { return TargetError{{sentence}, true}; }

std::optional<TargetError> readHosts(const Args& a, QList<launch::HostSpec>& out)
{
    launch::HostListResult hosts;
    if (auto f = a.value("--hosts")) {
        hosts = launch::readHostfile(q(*f));
    } else if (a.has("--host")) {
        QStringList names;
        for (const std::string& h : a.values("--host")) names << q(h);
        hosts = launch::parseHostArguments(names);
    } else {
        return std::nullopt;
    }
    if (!hosts.ok()) return TargetError{hosts.errors, false};
    out = hosts.hosts;
    return std::nullopt;
}

} // namespace

std::set<std::string> targetValuedOptions()
{
    return {"--hosts", "--host", "--core", "--workdir", "--remote-core", "--remote-dir", "--remote-workdir",
            "--ssh-config", "--known-hosts", "--ssh-dir", "--identity", "--connect-timeout", "--connect-tries",
            "--partition", "--account", "--time", "--slurm-arg"};
}

std::set<std::string> targetFlags() { return {"--local", "--slurm", "--accept-new-host-key"}; }

std::optional<TargetError> readTarget(Args& a, launch::RunConfig& c)
{
    const int hostSources = (a.has("--local") ? 1 : 0) + (a.has("--slurm") ? 1 : 0) + (a.has("--hosts") ? 1 : 0) +
                            (a.has("--host") ? 1 : 0);
    if (hostSources > 1) return misuse(QStringLiteral("give only one of --local, --slurm, --hosts and --host"));
    launch::TargetChoice choice;
    choice.slurm = a.has("--slurm");
    choice.local = hostSources == 0 || a.has("--local"); // this machine unless told otherwise
    if (choice.slurm) {
        for (const char* opt : kSshOptions)
            if (a.has(opt)) return misuse(QStringLiteral("%1 applies to SSH runs, not to --slurm").arg(QLatin1String(opt)));
        if (auto v = a.value("--partition")) choice.slurmOptions.partition = q(*v);
        if (auto v = a.value("--account")) choice.slurmOptions.account = q(*v);
        if (auto v = a.value("--time")) choice.slurmOptions.timeLimit = q(*v);
        for (const std::string& arg : a.values("--slurm-arg")) choice.slurmOptions.extraArgs << q(arg);
    } else {
        for (const char* opt : kSlurmOptions)
            if (a.has(opt)) return misuse(QStringLiteral("%1 applies to Slurm runs (--slurm)").arg(QLatin1String(opt)));
    }
    if (auto why = readHosts(a, choice.hosts)) return why;
    c.target = launch::targetFrom(choice);
    // The SSH options are read whatever the target, so that a bad number is refused alike.
    launch::SshOptions ssh;
    if (!readSshOptions(a, ssh)) return misuse(q(a.error()));
    if (launch::HereCore* here = launch::hereCore(c.target)) {
        here->corePath = a.value("--core") ? q(*a.value("--core"))
                                           : QCoreApplication::applicationDirPath() + QStringLiteral("/shardbench-core");
        if (auto v = a.value("--workdir")) here->workdir = q(*v);
    } else if (auto* remote = std::get_if<launch::SshTarget>(&c.target)) {
        if (auto v = a.value("--remote-core")) remote->remoteCore = q(*v);
        if (auto v = a.value("--remote-dir")) remote->remoteDir = q(*v);
        if (auto v = a.value("--remote-workdir")) remote->remoteWorkdir = q(*v);
        remote->ssh = ssh;
    }
    return std::nullopt;
}

bool readSshOptions(Args& a, launch::SshOptions& ssh)
{
    ssh.connectTimeoutS = static_cast<int>(a.integer("--connect-timeout", ssh.connectTimeoutS, 1, limits::kMaxSshSeconds));
    ssh.connectTries = static_cast<int>(a.integer("--connect-tries", ssh.connectTries, 1, limits::kMaxConnectTries));
    if (auto v = a.value("--ssh-config")) ssh.configFile = q(*v);
    if (auto v = a.value("--known-hosts")) ssh.knownHostsFile = q(*v);
    if (auto v = a.value("--ssh-dir")) ssh.sshDir = q(*v);
    for (const std::string& id : a.values("--identity")) ssh.identityFiles << q(id);
    return a.ok();
}

std::optional<TargetError> checkTargetCore(const Args& a, launch::RunConfig& c)
{
    if (auto* local = std::get_if<launch::LocalTarget>(&c.target)) {
        const QFileInfo core(local->corePath);
        if (!core.exists()) return misuse(QStringLiteral("shardbench-core not found at %1 (build it, or give --core PATH)").arg(local->corePath));
        if (!core.isFile() || !core.isExecutable()) return misuse(QStringLiteral("%1 is not an executable file").arg(local->corePath));
        local->corePath = core.absoluteFilePath();
    } else if (auto* slurm = std::get_if<launch::SlurmTarget>(&c.target)) {
        // The nodes run the core at this path (a shared file system), or find a bare name on their PATH.
        if (slurm->corePath.contains(QLatin1Char('/'))) slurm->corePath = QFileInfo(slurm->corePath).absoluteFilePath();
    } else {
        for (const char* opt : {"--core", "--workdir"})
            if (a.has(opt)) return misuse(QStringLiteral("%1 applies to local runs; use --remote-core / --remote-workdir").arg(QLatin1String(opt)));
    }
    return std::nullopt;
}

} // namespace sb::cli
