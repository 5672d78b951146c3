// The rank's own log on stderr, written beside its events: what a training
// script would print (where it runs, the plan, progress every kLogEverySteps
// steps, checkpoints, the end). The launcher stores it per rank, so the
// workbench's rank panes and `shardbench-cli logs --rank R` read a run's
// story, not only its failures.
#pragma once

#include "protocol/events.hpp"

#include <optional>
#include <string>

namespace sb::engine {

inline constexpr long long kLogEverySteps = 10; // and the first and the last step

std::optional<std::string> logLine(const protocol::Hello& e);
std::optional<std::string> logLine(const protocol::PlanEvent& e);
std::optional<std::string> logLine(const protocol::Step& e);
std::optional<std::string> logLine(const protocol::CheckpointEvent& e);
std::optional<std::string> logLine(const protocol::Done& e);
// Errors are logged by Events::error(); other events are not logged.
template <class Event>
std::optional<std::string> logLine(const Event&)
{
    return std::nullopt;
}

} // namespace sb::engine
