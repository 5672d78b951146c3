// The life of a run as the store records it.
#pragma once

#include <QString>

#include <optional>

namespace sb::store {

enum class RunStatus { Starting, Running, Completed, Failed, Cancelled };

QString statusName(RunStatus s);              // "starting", "running", ...
std::optional<RunStatus> parseStatus(const QString& name);
inline bool isFinal(RunStatus s) { return s == RunStatus::Completed || s == RunStatus::Failed || s == RunStatus::Cancelled; }

} // namespace sb::store
