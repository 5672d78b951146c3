// The bounds of a run's settings, each defined once and Qt-free: the run spec
// the cluster's supervisor reads (core/supervisor/run_spec.cpp), the
// launcher's checks (launcher/launch/run_config.cpp), shardbench-cli's
// options and the workbench's fields all use these, so that no front end
// allows what another refuses.
#pragma once

namespace sb::limits {

// Restarts of a failed run (0 = none).
inline constexpr int kMaxRestarts = 1000;

// Launch at scale over SSH: at most this many sessions connecting or
// authenticating at once, per launch (sshd's and a bastion's MaxStartups
// refuse beyond 10 by default), in the workbench and in the detached runs'
// supervisor alike.
inline constexpr int kMaxConnecting = 8;
// Tries of a connection that fails before its login completes, with waits
// of 1, 2, 4, 8, 16 s between them; the user may set 1 to kMaxConnectTries.
inline constexpr int kConnectTries = 6;
inline constexpr int kMaxConnectTries = 20;

// SSH timing, in seconds: the connect timeout, the interval of keepalive
// requests, and how long nothing may arrive before a host counts as lost.
// Every one of them is at most kMaxSshSeconds.
inline constexpr int kConnectTimeoutS = 15;
inline constexpr int kKeepaliveS = 5;
inline constexpr int kLivenessTimeoutS = 30;
inline constexpr int kMaxSshSeconds = 3600;

// Stopping a run: the grace between SIGTERM and SIGKILL, in milliseconds.
inline constexpr int kMaxStopGraceMs = 60000;

// A run's name, in characters.
inline constexpr int kMaxRunNameChars = 200;

} // namespace sb::limits
