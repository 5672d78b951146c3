// Every difference between LibTorch 1.13 (Debian, this machine) and 2.x (GPU
// nodes) lives here. In 1.13 ProcessGroupGloo derives from c10d::ProcessGroup;
// in 2.x from c10d::Backend. Collective signatures are the same, so callers use
// `CommBackend` and never name either base.
#pragma once

#include <torch/optim/optimizer.h>
#include <torch/version.h>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#if defined(SB_WITH_CUDA)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace sb::engine {

#if TORCH_VERSION_MAJOR >= 2
using CommBackend = ::c10d::Backend;
#else
using CommBackend = ::c10d::ProcessGroup;
#endif

using CommWork = ::c10d::Work;

inline constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

inline const char* torchVersion() { return TORCH_VERSION; }

// The key of a parameter's entry in an optimizer's state(): its TensorImpl,
// written as a string in 1.13, the pointer itself in 2.x.
#if TORCH_VERSION_MAJOR >= 2
inline void* optimizerStateKey(const torch::Tensor& p) { return p.unsafeGetTensorImpl(); }
#else
inline std::string optimizerStateKey(const torch::Tensor& p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }
#endif

} // namespace sb::engine
