#include "connection_text.hpp"

#include <QCoreApplication>
#include <QLocale>

namespace sb::gui {

using app::HostProbeResult;

namespace {
struct ConnectionText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::ConnectionText)
};

QString key(const HostProbeResult& r) { return r.keyType + QLatin1Char(' ') + r.keyFingerprint; }
} // namespace

QString probeHostLabel(const HostProbeResult& r)
{
    return r.local ? ConnectionText::tr("this machine") : r.host;
}

QString probeFailureText(const HostProbeResult& r)
{
    const QString host = probeHostLabel(r);
    switch (r.failure) {
    case HostProbeResult::None: return {};
    case HostProbeResult::Cancelled: return ConnectionText::tr("%1: the test was cancelled").arg(host);
    case HostProbeResult::Unreachable: return ConnectionText::tr("%1 is not reachable: %2").arg(host, r.detail);
    case HostProbeResult::HostKeyRefused:
        return ConnectionText::tr("%1: its unknown host key %2 was refused, so shardbench did not log in").arg(host, key(r));
    case HostProbeResult::HostKeyChanged:
        return ConnectionText::tr("%1: the host key has CHANGED (it is now %2), so the connection was refused. Someone may "
                                  "be intercepting it, or the host was reinstalled. If the change is expected, remove the "
                                  "old key from known_hosts (ssh-keygen -R) and test again.")
            .arg(host, key(r));
    case HostProbeResult::HostKeyOtherType:
        return ConnectionText::tr("%1 offered a %2 key, but known_hosts holds a key of another type for it, so the "
                                  "connection was refused: this can mean someone is intercepting it.")
            .arg(host, r.keyType);
    case HostProbeResult::NotAuthenticated:
        return ConnectionText::tr("%1: login refused, no key was accepted. Install your public key on the host; a key "
                                  "with a passphrase must be loaded into ssh-agent. (%2)")
            .arg(host, r.detail);
    case HostProbeResult::CoreMissing:
        return ConnectionText::tr("%1: shardbench-core was not found (%2)").arg(host, r.corePath);
    case HostProbeResult::CoreFailed:
        return r.detail.isEmpty()
                   ? ConnectionText::tr("%1: shardbench-core did not start (exit code %2)").arg(host).arg(r.exitCode)
                   : ConnectionText::tr("%1: shardbench-core did not start: %2").arg(host, r.detail);
    case HostProbeResult::CoreTimeout:
        return ConnectionText::tr("%1: shardbench-core did not finish its test run in time").arg(host);
    case HostProbeResult::PythonMissing: return ConnectionText::tr("%1: Python was not found (%2)").arg(host, r.corePath);
    case HostProbeResult::TorchMissing:
        return ConnectionText::tr("%1: %2 cannot import PyTorch (%3)").arg(host, r.corePath, r.detail);
    case HostProbeResult::TorchTooOld:
        return ConnectionText::tr("%1: PyTorch %2 has no fully_shard; the PyTorch engine needs PyTorch 2.6 or newer").arg(host, r.torchVersion);
    case HostProbeResult::TorchWithoutCuda:
        return ConnectionText::tr("%1: the plan runs on CUDA but PyTorch %2 there has %3").arg(host, r.torchVersion,
            r.torchCuda ? ConnectionText::tr("no NCCL") : ConnectionText::tr("no CUDA"));
    case HostProbeResult::Other: return ConnectionText::tr("%1: %2").arg(host, r.detail);
    }
    return {};
}

QString probeGpuText(const HostProbeResult& r)
{
    if (!r.gpuToolFound) return ConnectionText::tr("none (no nvidia-smi)");
    if (r.gpus.isEmpty()) return ConnectionText::tr("none (nvidia-smi sees no GPU)");
    // Identical GPUs are listed once with a count.
    QStringList names;
    for (const QString& g : r.gpus) names << g.section(QLatin1Char(','), 0, 0).trimmed();
    names.removeDuplicates();
    if (names.size() == 1) return ConnectionText::tr("%n × %1", nullptr, static_cast<int>(r.gpus.size())).arg(names.front());
    return r.gpus.join(QStringLiteral("; "));
}

QString probeEngineText(const HostProbeResult& r)
{
    if (!r.coreVersion.isEmpty())
        return ConnectionText::tr("shardbench-core %1")
            .arg(ConnectionText::tr("%1 (LibTorch %2, %3)").arg(r.coreVersion, r.torchVersion, r.coreDevice));
    if (r.pythonVersion.isEmpty()) return {};
    const QString gpu = !r.torchCuda ? ConnectionText::tr("no CUDA") : r.torchNccl ? ConnectionText::tr("CUDA and NCCL") : ConnectionText::tr("no NCCL");
    return ConnectionText::tr("Python %1, PyTorch %2 (%3)").arg(r.pythonVersion, r.torchVersion, gpu);
}

QString probeSummaryText(const HostProbeResult& r)
{
    if (!r.ok()) return probeFailureText(r);
    QStringList parts;
    if (!r.local)
        parts << (r.user.isEmpty() ? ConnectionText::tr("reachable at %1:%2").arg(r.address).arg(r.port)
                                   : ConnectionText::tr("logged in as %1 at %2:%3").arg(r.user, r.address).arg(r.port));
    parts << ConnectionText::tr("GPUs: %1").arg(probeGpuText(r));
    if (const QString engine = probeEngineText(r); !engine.isEmpty()) parts << engine;
    parts << ConnectionText::tr("%1 s").arg(QLocale().toString(r.ms / 1000.0, 'f', 1));
    return probeHostLabel(r) + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

} // namespace sb::gui
