// A CPU allocator that counts every ATen allocation exactly (current and
// peak bytes). Installed before the first tensor is created; it also sets
// the process's heap policy (freed memory stays in the process for reuse).
#pragma once

#include <cstdint>

namespace sb::engine {

struct MemoryStats {
    std::uint64_t current = 0;
    std::uint64_t peak = 0;      // since the last resetPeak()
    std::uint64_t allocations = 0;
};

void installTrackingAllocator();
bool trackingAllocatorInstalled();
MemoryStats memoryStats();
void resetPeakMemory(); // peak := current
// Counts memory that ATen did not allocate but a rank holds as it would hold
// an allocation (negative: released): the shared-memory slots that stand in
// for communication buffers (shm_group.hpp).
void countExternalBytes(std::int64_t delta);
// Resident set size of the process (bytes), from /proc/self/statm.
std::uint64_t residentBytes();

} // namespace sb::engine
