// The backend of a run's kind, made fresh for each attempt.
#pragma once

#include "backend.hpp"
#include "run_config.hpp"

#include <memory>

namespace sb::launch {

class HostKeyPolicy;

// `policy` decides about unknown SSH host keys (SSH runs only); it must
// outlive the backend.
std::unique_ptr<Backend> makeBackend(BackendKind kind, HostKeyPolicy* policy);

} // namespace sb::launch
