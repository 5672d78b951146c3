// The compute device of this rank: the CPU (collectives over Gloo) or, in a
// build against a CUDA LibTorch, one GPU per local rank (collectives over
// NCCL). Everything that differs between the two lives here and in cuda/, so
// the rest of the engine asks these functions and never tests for CUDA itself.
#pragma once

#include "tracking_allocator.hpp"
#include "util/status.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <string>

namespace sb::engine {

// True when this binary was built with CUDA and NCCL (SB_WITH_CUDA).
bool cudaBuild();

// Chooses the device for this process, before any tensor exists: the CPU, or
// cuda:localRank; refused with why the device cannot be used.
Status selectDevice(bool cuda, int localRank);

const torch::Device& computeDevice();
bool onCuda();
// Tensor options on the compute device.
torch::TensorOptions onDevice(torch::ScalarType dtype);
// The allocator that refills a parameter's freed storage in place.
c10::Allocator* deviceAllocator();
// Waits for the kernels queued so far (phase timings); nothing on the CPU.
void synchronizeDevice();

// Bytes of tensors alive on the compute device now and at peak since the
// last reset (the tracking allocator on the CPU, the caching allocator on CUDA),
// and what the device holds in all (CPU: resident set; CUDA: reserved by the
// caching allocator).
MemoryStats deviceMemoryStats();
void resetDevicePeak();
std::uint64_t deviceBytesHeld();

// "cpu", or "cuda:N" with the GPU's name, for the hello event.
std::string deviceDescription();

} // namespace sb::engine
