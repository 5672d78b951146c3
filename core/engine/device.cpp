#include "device.hpp"

#if defined(SB_WITH_CUDA)
#include "cuda/cuda_device.hpp"
#endif

#include <c10/core/CPUAllocator.h>

namespace sb::engine {

namespace {
torch::Device gDevice(torch::kCPU);
} // namespace

bool cudaBuild()
{
#if defined(SB_WITH_CUDA)
    return true;
#else
    return false;
#endif
}

Status selectDevice(bool cuda, int localRank)
{
    if (!cuda) {
        gDevice = torch::Device(torch::kCPU);
        return {};
    }
#if defined(SB_WITH_CUDA)
    if (Status why = cuda::useGpu(localRank); !why.ok()) return why;
    gDevice = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(localRank));
    return {};
#else
    (void)localRank;
    return Status::error("this shardbench-core was built without CUDA (its LibTorch has none); the plan asks for device \"cuda\"");
#endif
}

const torch::Device& computeDevice() { return gDevice; }

bool onCuda() { return gDevice.is_cuda(); }

torch::TensorOptions onDevice(torch::ScalarType dtype) { return torch::TensorOptions().dtype(dtype).device(gDevice); }

c10::Allocator* deviceAllocator()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) return cuda::allocator();
#endif
    return c10::GetCPUAllocator();
}

void synchronizeDevice()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) cuda::synchronize();
#endif
}

MemoryStats deviceMemoryStats()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) return cuda::memoryStats(gDevice.index());
#endif
    return memoryStats();
}

void resetDevicePeak()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) return cuda::resetPeak(gDevice.index());
#endif
    resetPeakMemory();
}

std::uint64_t deviceBytesHeld()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) return cuda::reservedBytes(gDevice.index());
#endif
    return residentBytes();
}

std::string deviceDescription()
{
#if defined(SB_WITH_CUDA)
    if (onCuda()) return "cuda:" + std::to_string(gDevice.index()) + " (" + cuda::deviceName(gDevice.index()) + ")";
#endif
    return "cpu";
}

} // namespace sb::engine
