#include "hosts/python_probe.hpp"

namespace sb::app {

const char kPythonCheck[] =
    "import sys\n"
    "try:\n"
    "    import torch\n"
    "except Exception as e:\n"
    "    print('@no-torch %s: %s' % (type(e).__name__, e)); sys.exit(0)\n"
    "try:\n"
    "    from torch.distributed.fsdp import fully_shard\n"
    "except Exception:\n"
    "    print('@old-torch %d.%d.%d %s' % (sys.version_info[:3] + (torch.__version__,))); sys.exit(0)\n"
    "import torch.distributed as d\n"
    "print('@torch %d.%d.%d %s %d %d' % (sys.version_info[:3] + (torch.__version__, torch.cuda.is_available(),\n"
    "      d.is_available() and d.is_nccl_available())))\n";

HostProbeResult::Failure readPythonCheck(const QByteArray& out, bool needCuda, HostProbeResult& r)
{
    for (const QByteArray& raw : out.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.startsWith("@no-torch ")) {
            r.detail = QString::fromUtf8(line.mid(10)).left(300);
            return HostProbeResult::TorchMissing;
        }
        const QList<QByteArray> f = line.split(' ');
        if (f.value(0) == "@old-torch" && f.size() >= 3) {
            r.pythonVersion = QString::fromUtf8(f[1]);
            r.torchVersion = QString::fromUtf8(f[2]);
            return HostProbeResult::TorchTooOld;
        }
        if (f.value(0) == "@torch" && f.size() >= 5) {
            r.pythonVersion = QString::fromUtf8(f[1]);
            r.torchVersion = QString::fromUtf8(f[2]);
            r.torchCuda = f[3] == "1";
            r.torchNccl = f[4] == "1";
            return needCuda && !(r.torchCuda && r.torchNccl) ? HostProbeResult::TorchWithoutCuda : HostProbeResult::None;
        }
    }
    r.detail = QStringLiteral("the Python check printed nothing it could read");
    return HostProbeResult::Other;
}

void setProbedEngine(HostProbeOptions& options, const launch::RunConfig& config, Device device)
{
    const bool pytorch = config.engine == launch::Engine::PyTorch;
    options.python = pytorch ? config.python : QString();
    options.needCuda = pytorch && device == Device::Cuda;
}

bool engineProblem(const HostProbeResult& r)
{
    switch (r.failure) {
    case HostProbeResult::CoreMissing:
    case HostProbeResult::CoreFailed:
    case HostProbeResult::CoreTimeout:
    case HostProbeResult::PythonMissing:
    case HostProbeResult::TorchMissing:
    case HostProbeResult::TorchTooOld:
    case HostProbeResult::TorchWithoutCuda: return true;
    default: return false;
    }
}

} // namespace sb::app
