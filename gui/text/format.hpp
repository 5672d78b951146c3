// Numbers as people read them, in the current language's locale.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace sb::gui {

QString formatBytes(std::uint64_t bytes);        // "12.34 GiB", "512.00 MiB", "96 B"
QString formatGiB(double gib, int decimals = 2); // "80.00 GiB"
double toGiB(std::uint64_t bytes);
QString formatCount(std::int64_t n);             // "124,439,808"
QString formatShape(const std::vector<std::int64_t>& shape); // "8192 × 1024"

} // namespace sb::gui
