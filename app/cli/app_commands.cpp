#include "app_commands.hpp"

#include "args.hpp"
#include "cli_launch.hpp"
#include "command_exit.hpp"
#include "preflight_words.hpp"
#include "probe_text.hpp"
#include "target_options.hpp"
#include "text_format.hpp"

#include "hosts/host_probe.hpp"
#include "run/launch_request.hpp"
#include "run/preflight.hpp"

#include "launch/launch_checks.hpp"
#include "launch/launch_target.hpp"
#include "launch/ssh/host_key_policy.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

namespace sb::cli {

const char* const kPreflightUsage =
    "shardbench-cli preflight PLAN.json [--name NAME] [--ignore-memory-estimate] [--engine core|pytorch [--script FILE] [--script-arg ARG ...] [--python PATH]] TARGET";
const char* const kProbeUsage =
    "shardbench-cli probe HOST[:SLOTS] [--ssh-config FILE] [--known-hosts FILE] [--ssh-dir DIR] [--identity KEYFILE ...]\n"
    "       [--connect-timeout S] [--accept-new-host-key] [--remote-core PATH] [--remote-dir DIR] [--no-core]\n"
    "   or: shardbench-cli probe --local [--core PATH] [--no-core]";

namespace {

int usageError(std::ostream& err, const char* cmd, const char* usage, const QStringList& lines)
{
    for (const QString& l : lines) err << "shardbench-cli " << cmd << ": " << l.toStdString() << "\n";
    err << "usage: " << usage << (usage == kPreflightUsage ? std::string("\n  TARGET: ") + kTargetUsage : std::string()) << "\n";
    return kExitBadInput;
}

launch::FixedHostKeyPolicy hostKeyPolicy(const Args& a)
{
    return launch::FixedHostKeyPolicy(a.has("--accept-new-host-key") ? launch::HostKeyDecision::AcceptAndRemember
                                                                     : launch::HostKeyDecision::Reject);
}

} // namespace

int cmdPreflight(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    std::set<std::string> valued = targetValuedOptions(), flags = targetFlags();
    valued.insert("--name");
    for (const std::string& o : engineValuedOptions()) valued.insert(o);
    flags.insert("--ignore-memory-estimate");
    Args a(argv, valued, flags);
    if (!a.ok()) return usageError(err, "preflight", kPreflightUsage, {q(a.error())});
    if (a.positional().size() != 1) return usageError(err, "preflight", kPreflightUsage, {QStringLiteral("expected one plan file")});
    launch::RunConfig c;
    if (auto why = readTarget(a, c)) return usageError(err, "preflight", kPreflightUsage, why->lines);
    if (const Status engine = readEngineOptions(a, c); !engine) return usageError(err, "preflight", kPreflightUsage, {qtMessage(engine)});
    // A local core that is missing is the pre-flight's finding, not a misuse.
    if (auto* local = std::get_if<launch::LocalTarget>(&c.target)) local->corePath = QFileInfo(local->corePath).absoluteFilePath();
    else if (auto why = checkTargetCore(a, c)) return usageError(err, "preflight", kPreflightUsage, why->lines);

    QTemporaryDir launchDir; // the plan as the ranks would read it, thrown away afterwards
    const std::optional<CliLaunch> l = readCliLaunch(q(a.positional()[0]), c, launchDir.path(), a.has("--ignore-memory-estimate"), "preflight", err);
    if (!l) return kExitBadInput;
    app::LaunchRequest request = l->request;
    request.config.name = a.value("--name") ? q(*a.value("--name")) : QString();

    launch::FixedHostKeyPolicy policy = hostKeyPolicy(a);
    app::Preflight preflight(&policy);
    QObject::connect(&preflight, &app::Preflight::finished, QCoreApplication::instance(), [] { QCoreApplication::exit(0); },
                     Qt::QueuedConnection);
    preflight.run(request, l->environment);
    QCoreApplication::exec();
    printPreflight(preflight, out);
    return preflight.passed() ? 0 : 1;
}

int cmdProbe(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv,
           {"--ssh-config", "--known-hosts", "--ssh-dir", "--identity", "--connect-timeout", "--remote-core", "--remote-dir", "--core"},
           {"--local", "--accept-new-host-key", "--no-core"});
    if (!a.ok()) return usageError(err, "probe", kProbeUsage, {q(a.error())});
    const bool local = a.has("--local");
    if (local == (a.positional().size() == 1) || a.positional().size() > 1)
        return usageError(err, "probe", kProbeUsage, {QStringLiteral("give one host, or --local")});
    app::HostProbeOptions options;
    options.runCore = !a.has("--no-core");
    if (auto v = a.value("--remote-core")) options.remoteCore = q(*v);
    if (auto v = a.value("--remote-dir")) options.remoteDir = q(*v);
    app::HostProbeResult result;
    if (local) {
        for (const char* opt : {"--ssh-config", "--known-hosts", "--ssh-dir", "--identity", "--connect-timeout", "--remote-core",
                                "--remote-dir", "--accept-new-host-key"})
            if (a.has(opt)) return usageError(err, "probe", kProbeUsage, {QStringLiteral("%1 applies to SSH hosts, not to --local").arg(QLatin1String(opt))});
        const QString core = a.value("--core") ? q(*a.value("--core"))
                                               : QCoreApplication::applicationDirPath() + QStringLiteral("/shardbench-core");
        result = app::probeLocalHost(QFileInfo(core).absoluteFilePath(), options);
    } else {
        if (a.has("--core")) return usageError(err, "probe", kProbeUsage, {QStringLiteral("--core applies to --local; use --remote-core")});
        const launch::HostListResult hosts = launch::parseHostArguments({q(a.positional()[0])});
        if (!hosts.ok()) return usageError(err, "probe", kProbeUsage, hosts.errors);
        launch::SshOptions ssh;
        if (!readSshOptions(a, ssh)) return usageError(err, "probe", kProbeUsage, {q(a.error())});
        launch::FixedHostKeyPolicy policy = hostKeyPolicy(a);
        result = app::probeSshHost(hosts.hosts.value(0), ssh, policy, options);
    }
    printProbe(result, out);
    if (result.ok()) return kExitOk;
    err << "shardbench-cli probe: " << terminalSafe(probeFailure(result)).toStdString() << "\n";
    return kExitFailed;
}

} // namespace sb::cli
