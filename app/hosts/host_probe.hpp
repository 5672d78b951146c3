// The connection test of one host, run in a worker thread: is it reachable,
// is its key known (an unknown one is asked about through the policy, a
// changed one refused), does the login work, which GPUs does nvidia-smi see,
// and is shardbench-core there, in which version. shardbench-core has no
// --version: the probe runs it as one rank of a one-step plan of a few
// thousand parameters and reads the version from its `hello` event.
#pragma once

#include "launch/host_list.hpp"
#include "launch/run_config.hpp"
#include "launch/ssh/connect_gate.hpp"
#include "launch/ssh/host_key_policy.hpp"

#include <QString>
#include <QStringList>

#include <atomic>

namespace sb::app {

struct HostProbeResult {
    // The first thing that went wrong; later stages were not tried.
    enum Failure {
        None,
        Cancelled,
        Unreachable,      // no TCP/SSH connection (name, route, port, timeout)
        HostKeyRefused,   // unknown key, refused by the user (or nobody to ask)
        HostKeyChanged,   // the key differs from known_hosts: always refused
        HostKeyOtherType, // known_hosts holds another type of key for the host
        NotAuthenticated, // no key was accepted
        CoreMissing,      // shardbench-core is not there (or not executable)
        CoreFailed,       // it is there but did not say hello
        CoreTimeout,      // it did not finish the probe in time
        // The PyTorch engine (HostProbeOptions::python): the Python is not
        // there, it cannot import torch, its torch has no fully_shard, or no
        // CUDA/NCCL for a plan that runs on CUDA.
        PythonMissing,
        TorchMissing,
        TorchTooOld,
        TorchWithoutCuda,
        Other
    };
    QString host;
    bool local = false;
    bool reachable = false;
    bool keyChecked = false;
    bool authenticated = false;
    QString address;           // after the SSH config
    QString user;
    int port = 0;
    QString keyType;           // "ssh-ed25519"
    QString keyFingerprint;    // "SHA256:..."
    bool gpuToolFound = false; // nvidia-smi is installed
    QStringList gpus;          // one line per GPU: "NVIDIA H100 80GB HBM3, 81559 MiB"
    int cpus = 0;
    bool coreFound = false;
    QString corePath;
    QString coreVersion;
    QString torchVersion;
    QString coreDevice;
    QString pythonVersion;     // the PyTorch engine's Python ("3.11.2"); its path is corePath
    bool torchCuda = false, torchNccl = false;
    Failure failure = None;
    QString detail;            // the launcher's or the core's own words about the failure
    int exitCode = -1;         // of the probe run of shardbench-core
    qint64 ms = 0;
    bool ok() const { return failure == None; }
};

struct HostProbeOptions {
    QString remoteCore = QStringLiteral("shardbench-core");
    QString remoteDir = QStringLiteral(".shardbench/runs"); // the probe's plan goes into REMOTE_DIR/probe-<id>/
    bool runCore = true;       // false: only connect and log in
    // The PyTorch engine: this Python (a path or a name on PATH there) is
    // tested for PyTorch with fully_shard instead of running the core;
    // `needCuda`: also CUDA and NCCL.
    QString python;
    bool needCuda = false;
    int commandTimeoutMs = 20000;
    int coreTimeoutMs = 90000;
};

// One connection try (a test of the connection as it is). `gate`: the slots
// this probe shares with others (nullptr: none), one held from the handshake
// to the end; cancelling the gate ends a probe waiting for a slot.
HostProbeResult probeSshHost(const launch::HostSpec& host, const launch::SshOptions& ssh, launch::HostKeyPolicy& policy,
                             const HostProbeOptions& options, const std::atomic<bool>* cancel = nullptr,
                             launch::ConnectGate* gate = nullptr);
HostProbeResult probeLocalHost(const QString& corePath, const HostProbeOptions& options,
                               const std::atomic<bool>* cancel = nullptr);

// The plan the probe runs (JSON): a 1 x 1 mesh, one step of a tiny Transformer.
QByteArray probePlanJson();
// Reads the `hello` of the probe's stdout into the result; false when there is none.
bool readProbeOutput(const QByteArray& stdoutText, HostProbeResult& result);

} // namespace sb::app
