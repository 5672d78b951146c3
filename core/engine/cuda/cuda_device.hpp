// The CUDA side of device.hpp: compiled only in a build against a CUDA
// LibTorch (SB_WITH_CUDA). The CPU-only build never includes this file.
#pragma once

#include "tracking_allocator.hpp"
#include "util/status.hpp"

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <string>

namespace sb::engine::cuda {

// Makes GPU `localRank` this process's current device, or says why it cannot.
Status useGpu(int localRank);
c10::Allocator* allocator();
void synchronize();
MemoryStats memoryStats(c10::DeviceIndex device);
void resetPeak(c10::DeviceIndex device);
std::uint64_t reservedBytes(c10::DeviceIndex device);
std::string deviceName(c10::DeviceIndex device);

} // namespace sb::engine::cuda
