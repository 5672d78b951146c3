#include "run_config.hpp"
#include "run_config_problems.hpp"

#include "plan/problem_catalogue.hpp"
#include "protocol/run_limits.hpp"

#include "printable.hpp"
#include "shell_quote.hpp"

#include <variant>

namespace sb::launch {

const std::vector<RunConfigTemplate>& runConfigCatalogue()
{
    using Code = RunConfigCode;
    static const std::vector<RunConfigTemplate> rows{SB_RUN_CONFIG_CATALOGUE(SB_CATALOGUE_ROW)};
    return rows;
}

QString runConfigMessage(const RunConfigProblem& p)
{
    return QString::fromStdString(fillEnglish(catalogueRow(runConfigCatalogue(), p.code).text, p.args));
}

QStringList runConfigMessages(const std::vector<RunConfigProblem>& problems)
{
    QStringList out;
    for (const RunConfigProblem& p : problems) out << runConfigMessage(p);
    return out;
}

std::vector<RunConfigProblem> sshOptionProblems(const SshOptions& ssh)
{
    std::vector<RunConfigProblem> e;
    using C = RunConfigCode;
    using namespace limits;
    if (ssh.connectTimeoutS < 1 || ssh.connectTimeoutS > kMaxSshSeconds) e.push_back({C::SshConnectTimeout, {kMaxSshSeconds}});
    if (ssh.keepaliveS < 1 || ssh.keepaliveS > kMaxSshSeconds) e.push_back({C::SshKeepalive, {kMaxSshSeconds}});
    if (ssh.livenessTimeoutS <= ssh.keepaliveS || ssh.livenessTimeoutS > kMaxSshSeconds) e.push_back({C::SshLiveness, {kMaxSshSeconds}});
    if (ssh.connectTries < 1 || ssh.connectTries > kMaxConnectTries) e.push_back({C::SshConnectTries, {kMaxConnectTries}});
    return e;
}

QStringList SshOptions::validate() const { return runConfigMessages(sshOptionProblems(*this)); }

std::vector<RunConfigProblem> runConfigProblems(const RunConfig& c)
{
    std::vector<RunConfigProblem> e;
    using C = RunConfigCode;
    auto noNul = [&](const QString& v, C code) {
        if (v.contains(QChar(0))) e.push_back({code, {}});
    };
    if (c.planPath.isEmpty()) e.push_back({C::PlanMissing, {}});
    if (c.maxRestarts < 0 || c.maxRestarts > limits::kMaxRestarts) e.push_back({C::MaxRestarts, {limits::kMaxRestarts}});
    if (c.masterPort < 0 || c.masterPort > 65535) e.push_back({C::MasterPort, {}});
    if (c.stopGraceMs < 0 || c.stopGraceMs > limits::kMaxStopGraceMs) e.push_back({C::StopGrace, {limits::kMaxStopGraceMs}});
    if (c.stopDeadlineMs < c.stopGraceMs + 500) e.push_back({C::StopDeadline, {}});
    if (c.name.size() > limits::kMaxRunNameChars) e.push_back({C::NameTooLong, {limits::kMaxRunNameChars}});
    noNul(c.name, C::NameNul);
    noNul(c.resumeFrom, C::ResumeNul);
    noNul(c.initFrom, C::InitFromNul);
    if (c.initFrom.startsWith(QLatin1Char('-'))) e.push_back({C::InitFromDash, {}});
    if (!c.masterAddr.isEmpty())
        if (hostNameProblem(c.masterAddr)) e.push_back({C::MasterAddr, {textArg(printable(c.masterAddr.left(80)))}});
    for (auto it = c.extraEnv.begin(); it != c.extraEnv.end(); ++it) {
        if (!isValidEnvName(it.key().toUtf8())) e.push_back({C::EnvName, {textArg(printable(it.key()))}});
        noNul(it.value(), C::EnvValueNul);
    }
    if (c.engine == Engine::PyTorch) {
        if (c.python.isEmpty()) e.push_back({C::PythonMissing, {}});
        // `env NAME=VALUE... PYTHON`, and srun's options before the program.
        if (c.python.contains(QLatin1Char('=')) || c.python.startsWith(QLatin1Char('-'))) e.push_back({C::PythonChars, {}});
        noNul(c.python, C::PythonNul);
        noNul(c.script, C::ScriptNul);
        for (const QString& a : c.scriptArgs) noNul(a, C::ScriptNul);
        if (c.script.startsWith(QLatin1Char('-'))) e.push_back({C::ScriptDash, {}});
    } else if (!c.script.isEmpty() || !c.scriptArgs.isEmpty()) {
        e.push_back({C::ScriptWithCore, {}});
    }
    // Each kind checks only the fields it has: hosts, remote paths and SSH
    // options outside an SSH target, or Slurm options outside a Slurm one,
    // cannot be written down (launch_target.hpp).
    struct TargetCheck {
        std::vector<RunConfigProblem>& e;
        void here(const HereCore& h)
        {
            if (h.corePath.isEmpty()) e.push_back({C::CoreMissing, {}});
            if (h.corePath.contains(QChar(0))) e.push_back({C::CoreNul, {}});
            if (h.workdir.contains(QChar(0))) e.push_back({C::WorkdirNul, {}});
        }
        void operator()(const LocalTarget& t) { here(t); }
        void operator()(const SlurmTarget& t)
        {
            here(t);
            // srun reads options up to the program: a core path starting with '-' would be one.
            if (t.corePath.startsWith(QLatin1Char('-'))) e.push_back({C::CoreDash, {}});
            for (const RunConfigProblem& bad : t.options.problems()) e.push_back(bad);
        }
        void operator()(const SshTarget& t)
        {
            if (t.hosts.isEmpty()) e.push_back({C::SshNoHosts, {}});
            for (const HostSpec& h : t.hosts)
                if (auto bad = hostNameProblem(h.name)) e.push_back(*bad);
            if (t.remoteCore.isEmpty()) e.push_back({C::RemoteCoreMissing, {}});
            // `env NAME=VALUE... CORE`: env would take a core path with '=' for
            // one more variable, and one starting with '-' for an option.
            if (t.remoteCore.contains(QLatin1Char('=')) || t.remoteCore.startsWith(QLatin1Char('-')))
                e.push_back({C::RemoteCoreChars, {}});
            if (t.remoteDir.isEmpty()) e.push_back({C::RemoteDirMissing, {}});
            if (t.remoteCore.contains(QChar(0))) e.push_back({C::RemoteCoreNul, {}});
            if (t.remoteDir.contains(QChar(0))) e.push_back({C::RemoteDirNul, {}});
            if (t.remoteWorkdir.contains(QChar(0))) e.push_back({C::RemoteWorkdirNul, {}});
            const std::vector<RunConfigProblem> ssh = sshOptionProblems(t.ssh);
            e.insert(e.end(), ssh.begin(), ssh.end());
        }
    };
    std::visit(TargetCheck{e}, c.target);
    return e;
}

const char* engineName(Engine e) { return e == Engine::PyTorch ? "pytorch" : "core"; }

QStringList RunConfig::validate() const { return runConfigMessages(runConfigProblems(*this)); }

} // namespace sb::launch
