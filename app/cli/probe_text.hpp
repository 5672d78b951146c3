// A host probe's findings and failures as the command line prints them.
#pragma once

#include "hosts/host_probe.hpp"

#include <QString>

#include <ostream>

namespace sb::cli {

QString probeHost(const app::HostProbeResult& r); // the host, or "this machine"
// Why the probe stopped, in one line ("" when it did not).
QString probeFailure(const app::HostProbeResult& r);
// "0.1.0 (LibTorch 1.13.1, cpu) at PATH"
QString probeCore(const app::HostProbeResult& r);
// Everything the probe found, one "field: value" line each.
void printProbe(const app::HostProbeResult& r, std::ostream& out);

} // namespace sb::cli
