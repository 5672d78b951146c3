// An estimate as text for people (table), JSON for programs, CSV for sheets.
#pragma once

#include "../json/json.hpp"
#include "estimate.hpp"

#include <string>

namespace sb {

std::string formatBytes(std::uint64_t bytes);           // "12.34 GiB", "512.0 MiB", "96 B"
std::string formatCount(std::int64_t n);                 // "124,439,808"
std::string estimateTable(const Plan& plan, const Estimate& e);
json::Value estimateJson(const Plan& plan, const Estimate& e, bool withTimeline);
// One row per rank: rank,peak_bytes,<category>...,host_bytes
std::string estimateCsv(const Estimate& e);

} // namespace sb
