#include "probe_text.hpp"

#include "text_format.hpp"

namespace sb::cli {

using app::HostProbeResult;

namespace {

QString why(const HostProbeResult& r)
{
    switch (r.failure) {
    case HostProbeResult::None: return {};
    case HostProbeResult::Cancelled: return QStringLiteral("cancelled");
    case HostProbeResult::Unreachable: return QStringLiteral("not reachable: %1").arg(r.detail);
    case HostProbeResult::HostKeyRefused:
        return QStringLiteral("unknown host key %1 %2 refused (--accept-new-host-key accepts it)").arg(r.keyType, r.keyFingerprint);
    case HostProbeResult::HostKeyChanged:
        return QStringLiteral("the host key has CHANGED (now %1 %2); refused").arg(r.keyType, r.keyFingerprint);
    case HostProbeResult::HostKeyOtherType:
        return QStringLiteral("offered a %1 key but known_hosts holds another type for it; refused").arg(r.keyType);
    case HostProbeResult::NotAuthenticated: return QStringLiteral("login refused: %1").arg(r.detail);
    case HostProbeResult::CoreMissing: return QStringLiteral("shardbench-core not found (%1)").arg(r.corePath);
    case HostProbeResult::CoreFailed:
        return r.detail.isEmpty() ? QStringLiteral("shardbench-core did not start (exit code %1)").arg(r.exitCode)
                                  : QStringLiteral("shardbench-core did not start: %1").arg(r.detail);
    case HostProbeResult::CoreTimeout: return QStringLiteral("shardbench-core did not finish its test run in time");
    case HostProbeResult::PythonMissing: return QStringLiteral("Python not found (%1)").arg(r.corePath);
    case HostProbeResult::TorchMissing: return QStringLiteral("%1 cannot import PyTorch (%2)").arg(r.corePath, r.detail);
    case HostProbeResult::TorchTooOld:
        return QStringLiteral("PyTorch %1 has no fully_shard; the PyTorch engine needs PyTorch 2.6 or newer").arg(r.torchVersion);
    case HostProbeResult::TorchWithoutCuda:
        return QStringLiteral("the plan runs on CUDA but PyTorch %1 there has %2")
            .arg(r.torchVersion, r.torchCuda ? QStringLiteral("no NCCL") : QStringLiteral("no CUDA"));
    case HostProbeResult::Other: return r.detail;
    }
    return {};
}

void line(std::ostream& out, const char* field, const QString& value)
{
    out << field << ": " << terminalSafe(value).toStdString() << "\n"; // the host's own words
}

} // namespace

QString probeHost(const HostProbeResult& r) { return r.local ? QStringLiteral("this machine") : r.host; }

QString probeFailure(const HostProbeResult& r) { return r.ok() ? QString() : probeHost(r) + QStringLiteral(": ") + why(r); }

QString probeCore(const HostProbeResult& r)
{
    return QStringLiteral("%1 (LibTorch %2, %3) at %4").arg(r.coreVersion, r.torchVersion, r.coreDevice, r.corePath);
}

void printProbe(const HostProbeResult& r, std::ostream& out)
{
    line(out, "host", probeHost(r));
    if (!r.local) {
        line(out, "address", QStringLiteral("%1@%2:%3").arg(r.user, r.address).arg(r.port));
        line(out, "reachable", r.reachable ? QStringLiteral("yes") : QStringLiteral("no"));
        if (!r.keyType.isEmpty()) line(out, "host key", r.keyType + QLatin1Char(' ') + r.keyFingerprint);
        line(out, "logged in", r.authenticated ? QStringLiteral("yes") : QStringLiteral("no"));
    }
    if (r.cpus > 0) line(out, "cpus", QString::number(r.cpus));
    if (r.authenticated || r.local) {
        if (!r.gpuToolFound) line(out, "gpus", QStringLiteral("none (no nvidia-smi)"));
        else if (r.gpus.isEmpty()) line(out, "gpus", QStringLiteral("none (nvidia-smi sees no GPU)"));
        for (const QString& gpu : r.gpus) line(out, "gpu", gpu);
    }
    if (r.coreFound && !r.coreVersion.isEmpty()) line(out, "shardbench-core", probeCore(r));
    line(out, "time", QStringLiteral("%1 ms").arg(r.ms));
    if (!r.ok()) line(out, "failed", why(r));
}

} // namespace sb::cli
