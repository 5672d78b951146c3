#include "run_config.hpp"
#include "run_config_problems.hpp"

#include "plan/problem_catalogue.hpp"

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

const std::vector<RunConfigTemplate>& runConfigCatalogue()
{
#define SB_RUN_CONFIG_ROW(name, code, text) {RunConfigCode::name, code, text},
    static const std::vector<RunConfigTemplate> rows{SB_RUN_CONFIG_CATALOGUE(SB_RUN_CONFIG_ROW)};
#undef SB_RUN_CONFIG_ROW
    return rows;
}

QString runConfigMessage(const RunConfigProblem& p)
{
    std::vector<std::string> english;
    for (const ProblemArg& a : p.args) english.push_back(englishArg(a));
    return QString::fromStdString(fillTemplate(runConfigCatalogue().at(static_cast<std::size_t>(p.code)).text, english));
}

namespace {

QStringList messages(const std::vector<RunConfigProblem>& problems)
{
    QStringList out;
    for (const RunConfigProblem& p : problems) out << runConfigMessage(p);
    return out;
}

std::string utf8(const QString& s) { return s.toStdString(); }

} // namespace

std::vector<RunConfigProblem> sshOptionProblems(const SshOptions& ssh)
{
    std::vector<RunConfigProblem> e;
    using C = RunConfigCode;
    if (ssh.connectTimeoutS < 1 || ssh.connectTimeoutS > 3600) e.push_back({C::SshConnectTimeout, {}});
    if (ssh.keepaliveS < 1 || ssh.keepaliveS > 3600) e.push_back({C::SshKeepalive, {}});
    if (ssh.livenessTimeoutS <= ssh.keepaliveS || ssh.livenessTimeoutS > 3600) e.push_back({C::SshLiveness, {}});
    if (ssh.connectTries < 1 || ssh.connectTries > 20) e.push_back({C::SshConnectTries, {}});
    return e;
}

QStringList SshOptions::validate() const { return messages(sshOptionProblems(*this)); }

std::vector<RunConfigProblem> runConfigProblems(const RunConfig& c)
{
    std::vector<RunConfigProblem> e;
    using C = RunConfigCode;
    auto noNul = [&](const QString& v, C code) {
        if (v.contains(QChar(0))) e.push_back({code, {}});
    };
    if (c.planPath.isEmpty()) e.push_back({C::PlanMissing, {}});
    if (c.maxRestarts < 0 || c.maxRestarts > 1000) e.push_back({C::MaxRestarts, {}});
    if (c.masterPort < 0 || c.masterPort > 65535) e.push_back({C::MasterPort, {}});
    if (c.stopGraceMs < 0 || c.stopGraceMs > 60000) e.push_back({C::StopGrace, {}});
    if (c.stopDeadlineMs < c.stopGraceMs + 500) e.push_back({C::StopDeadline, {}});
    if (c.name.size() > 200) e.push_back({C::NameTooLong, {}});
    noNul(c.name, C::NameNul);
    noNul(c.resumeFrom, C::ResumeNul);
    if (!c.masterAddr.isEmpty())
        if (QString bad = checkHostName(c.masterAddr); !bad.isEmpty()) e.push_back({C::MasterAddr, {utf8(bad)}});
    for (auto it = c.extraEnv.begin(); it != c.extraEnv.end(); ++it) {
        if (!isValidEnvName(it.key().toUtf8())) e.push_back({C::EnvName, {utf8(printable(it.key()))}});
        noNul(it.value(), C::EnvValueNul);
    }
    if (c.backend == BackendKind::Local || c.backend == BackendKind::Slurm) {
        if (!c.hosts.isEmpty()) e.push_back({C::HostsGiven, {utf8(backendName(c.backend))}});
        if (c.corePath.isEmpty()) e.push_back({C::CoreMissing, {}});
        noNul(c.corePath, C::CoreNul);
        noNul(c.workdir, C::WorkdirNul);
    }
    if (c.backend == BackendKind::Slurm) {
        // srun reads options up to the program: a core path starting with '-' would be one.
        if (c.corePath.startsWith(QLatin1Char('-'))) e.push_back({C::CoreDash, {}});
        for (const QString& bad : c.slurm.validate()) e.push_back({C::Slurm, {utf8(bad)}});
    } else if (c.backend == BackendKind::Ssh) {
        if (c.hosts.isEmpty()) e.push_back({C::SshNoHosts, {}});
        for (const HostSpec& h : c.hosts)
            if (QString bad = checkHostName(h.name); !bad.isEmpty()) e.push_back({C::HostName, {utf8(bad)}});
        if (c.remoteCore.isEmpty()) e.push_back({C::RemoteCoreMissing, {}});
        // `env NAME=VALUE... CORE`: env would take a core path with '=' for
        // one more variable, and one starting with '-' for an option.
        if (c.remoteCore.contains(QLatin1Char('=')) || c.remoteCore.startsWith(QLatin1Char('-')))
            e.push_back({C::RemoteCoreChars, {}});
        if (c.remoteDir.isEmpty()) e.push_back({C::RemoteDirMissing, {}});
        noNul(c.remoteCore, C::RemoteCoreNul);
        noNul(c.remoteDir, C::RemoteDirNul);
        noNul(c.remoteWorkdir, C::RemoteWorkdirNul);
        const std::vector<RunConfigProblem> ssh = sshOptionProblems(c.ssh);
        e.insert(e.end(), ssh.begin(), ssh.end());
    }
    return e;
}

QStringList RunConfig::validate() const { return messages(runConfigProblems(*this)); }

} // namespace sb::launch
