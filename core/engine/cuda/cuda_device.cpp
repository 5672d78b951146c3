#include "cuda/cuda_device.hpp"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>

namespace sb::engine::cuda {

namespace {
// StatType::AGGREGATE: the first entry of every stat array. Named by index, since
// the enum moved between namespaces in 2.x (c10::CachingAllocator).
constexpr std::size_t kAggregate = 0;
} // namespace

Status useGpu(int localRank)
{
    const int count = c10::cuda::device_count();
    if (count == 0)
        return Status::error("the plan asks for device \"cuda\" but this host has no CUDA device visible to this process "
                             "(check CUDA_VISIBLE_DEVICES and the driver)");
    if (localRank >= count)
        return Status::error("LOCAL_RANK " + std::to_string(localRank) + " needs GPU " + std::to_string(localRank) + " but only " +
                             std::to_string(count) + " CUDA device(s) are visible: start at most that many ranks per host");
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(localRank));
    return {};
}

c10::Allocator* allocator() { return c10::cuda::CUDACachingAllocator::get(); }

void synchronize() { c10::cuda::device_synchronize(); }

MemoryStats memoryStats(c10::DeviceIndex device)
{
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
    MemoryStats m;
    m.current = static_cast<std::uint64_t>(stats.allocated_bytes[kAggregate].current);
    m.peak = static_cast<std::uint64_t>(stats.allocated_bytes[kAggregate].peak);
    m.allocations = static_cast<std::uint64_t>(stats.allocation[kAggregate].allocated);
    return m;
}

void resetPeak(c10::DeviceIndex device) { c10::cuda::CUDACachingAllocator::resetPeakStats(device); }

std::uint64_t reservedBytes(c10::DeviceIndex device)
{
    return static_cast<std::uint64_t>(c10::cuda::CUDACachingAllocator::getDeviceStats(device).reserved_bytes[kAggregate].current);
}

std::string deviceName(c10::DeviceIndex device) { return at::cuda::getDeviceProperties(device)->name; }

} // namespace sb::engine::cuda
