// The PyTorch engine's part of a host test: does the Python run, import
// torch, have FSDP2's fully_shard (PyTorch 2.6 or newer, which the exported
// script imports), and CUDA and NCCL where the plan runs on CUDA. One fixed
// command (nothing a user typed is in it), whose stdout says what it found.
#pragma once

#include "hosts/host_probe.hpp"

#include "launch/run_config.hpp"
#include "plan/plan.hpp"

#include <QByteArray>

namespace sb::app {

// The program given to `python -c`.
extern const char kPythonCheck[];

// What the check's stdout says, into `r` (versions, CUDA, NCCL); the failure,
// None when the engine can run the plan.
HostProbeResult::Failure readPythonCheck(const QByteArray& out, bool needCuda, HostProbeResult& r);

// Makes `options` test what the engine of `config` needs for a plan on
// `device`: the core, or config.python with PyTorch (and CUDA and NCCL on
// CUDA). The pre-flight and the Cluster area's test both set it here, so a
// host that passes one passes the other.
void setProbedEngine(HostProbeOptions& options, const launch::RunConfig& config, Device device);

// Whether a failure is of the engine on the host (the core or the Python), not of reaching it.
bool engineProblem(const HostProbeResult& r);

} // namespace sb::app
