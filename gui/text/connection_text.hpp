// Connection tests in words: what a probe found, or why it stopped, in the
// current language. Where the launcher's own sentence adds facts (which
// address, which error), it is appended as it is.
#pragma once

#include "hosts/host_probe.hpp"

#include <QString>

namespace sb::gui {

QString probeHostLabel(const app::HostProbeResult& r); // the host, or "this machine"
QString probeFailureText(const app::HostProbeResult& r);
QString probeGpuText(const app::HostProbeResult& r);   // "2 × NVIDIA H100 80GB HBM3", "no nvidia-smi"
// What runs the ranks there, as the test found it: "shardbench-core 0.1.0
// (LibTorch 2.5.1, cpu)" or "Python 3.11.2, PyTorch 2.6.0 (CUDA and NCCL)";
// "" when the test did not get that far.
QString probeEngineText(const app::HostProbeResult& r);
// One line: reachable, logged in, GPUs, engine, time taken.
QString probeSummaryText(const app::HostProbeResult& r);

} // namespace sb::gui
