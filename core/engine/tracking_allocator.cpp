#include "tracking_allocator.hpp"

#include "torch_compat.hpp"

#include <c10/core/CPUAllocator.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <unistd.h>

namespace sb::engine {

namespace {

std::atomic<std::uint64_t> gCurrent{0};
std::atomic<std::uint64_t> gPeak{0};
std::atomic<std::uint64_t> gCount{0};
bool gInstalled = false;

// Each block carries its size in a header in front of the data, so that
// raw_deleter (used by kernels calling raw_allocate) can count the release.
constexpr std::size_t kHeader = 64; // keeps the data 64-byte aligned

void release(void* data)
{
    if (!data) return;
    char* base = static_cast<char*>(data) - kHeader;
    const std::uint64_t size = *reinterpret_cast<std::uint64_t*>(base);
    gCurrent.fetch_sub(size, std::memory_order_relaxed);
    std::free(base);
}

void count(std::uint64_t n)
{
    const std::uint64_t now = gCurrent.fetch_add(n, std::memory_order_relaxed) + n;
    std::uint64_t peak = gPeak.load(std::memory_order_relaxed);
    while (now > peak && !gPeak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {}
}

class TrackingAllocator final : public CompatAllocator {
public:
    c10::DataPtr allocateBytes(std::size_t n) const override
    {
        void* base = nullptr;
        if (posix_memalign(&base, kHeader, n + kHeader) != 0 || !base)
            throw std::bad_alloc();
        *static_cast<std::uint64_t*>(base) = n;
        count(n);
        gCount.fetch_add(1, std::memory_order_relaxed);
        void* data = static_cast<char*>(base) + kHeader;
        return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &release; }
};

TrackingAllocator gAllocator;

} // namespace

void installTrackingAllocator()
{
    if (gInstalled) return;
    // A step allocates and frees the same large blocks (activations, gradients,
    // communication buffers) every time. glibc returns them to the kernel
    // (blocks from 128 KiB map their own pages until its threshold adapts, and
    // the heap's top is trimmed), so every step paid page faults and the
    // kernel's zeroing of fresh pages again: about 4% of a W=1 step
    // (docs/performance.md). Blocks up to 32 MiB (glibc's most) come from the
    // heap, and freed memory stays in the process for the next step. The
    // counted bytes are unchanged; the resident set keeps the step's peak.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    c10::SetCPUAllocator(&gAllocator, /*priority=*/100);
    gInstalled = true;
}

bool trackingAllocatorInstalled() { return gInstalled; }

MemoryStats memoryStats()
{
    return {gCurrent.load(), gPeak.load(), gCount.load()};
}

void resetPeakMemory() { gPeak.store(gCurrent.load()); }

void countExternalBytes(std::int64_t delta)
{
    if (delta >= 0) count(static_cast<std::uint64_t>(delta));
    else gCurrent.fetch_sub(static_cast<std::uint64_t>(-delta), std::memory_order_relaxed);
}

std::uint64_t residentBytes()
{
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

} // namespace sb::engine
