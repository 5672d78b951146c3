// Every difference between LibTorch 1.13 (Debian, this machine) and 2.x (GPU
// nodes) lives here. In 1.13 ProcessGroupGloo derives from c10d::ProcessGroup;
// in 2.x from c10d::Backend. Collective signatures are the same, so callers use
// `CommBackend` and never name either base.
#pragma once

#include <c10/core/Allocator.h>
#include <torch/optim/optimizer.h>
#include <torch/version.h>

#include <memory>
#include <stdexcept>

#if defined(SB_WITH_GLOO) // defined by the build when Gloo's headers were found (core/engine/CMakeLists.txt)
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
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

#define SB_TORCH_AT_LEAST(major, minor) \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// Gloo's transport device, which a build without Gloo's headers (a LibTorch
// that ships none) cannot name: such a build runs CUDA plans and one-rank CPU
// plans only.
#if defined(SB_WITH_GLOO)
using GlooDevicePtr = std::shared_ptr<::gloo::transport::Device>;
#else
using GlooDevicePtr = std::shared_ptr<void>;
#endif

// c10::Allocator: allocate() is const up to 2.2; from 2.3 it is not, and the
// pure virtual copy_data is new. An allocator implements allocateBytes.
class CompatAllocator : public c10::Allocator {
public:
#if SB_TORCH_AT_LEAST(2, 3)
    c10::DataPtr allocate(std::size_t n) override { return allocateBytes(n); }
    void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
#else
    c10::DataPtr allocate(std::size_t n) const override { return allocateBytes(n); }
#endif

protected:
    virtual c10::DataPtr allocateBytes(std::size_t n) const = 0;
};

inline const char* torchVersion() { return TORCH_VERSION; }

// Causal attention through ATen's fused kernels (FlashAttention or the
// memory-efficient kernel on CUDA), new in 2.0: q [B, H, S, hd], k and v
// [B, H, S, hd] (heads already repeated for grouped queries), scaled by
// 1/sqrt(hd). Keeps only q, k, v, the output and the softmax's row
// statistics for backward, not the [B, H, S, S] probabilities.
#if TORCH_VERSION_MAJOR >= 2
inline constexpr bool kHaveFusedSdpa = true;
inline torch::Tensor fusedCausalSdpa(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    return at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
}
#else
inline constexpr bool kHaveFusedSdpa = false;
inline torch::Tensor fusedCausalSdpa(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&)
{
    throw std::logic_error("scaled_dot_product_attention needs LibTorch 2.0 or later");
}
#endif

// ATen's multi-tensor AdamW kernel (what torch.optim.AdamW(fused=True)
// runs), 2.1 and later: one launch updates every CUDA parameter of a list.
// `steps`: one fp32 scalar on the device per parameter, already counting this
// step. Each gradient is divided by `gradDivisor` when one is given.
#if SB_TORCH_AT_LEAST(2, 1)
inline constexpr bool kHaveFusedAdamW = true;
inline void fusedAdamW(at::TensorList params, at::TensorList grads, at::TensorList expAvgs, at::TensorList expAvgSqs,
                       at::TensorList steps, double lr, double beta1, double beta2, double weightDecay, double eps,
                       const c10::optional<at::Tensor>& gradDivisor)
{
    at::_fused_adamw_(params, grads, expAvgs, expAvgSqs, {}, steps, lr, beta1, beta2, weightDecay, eps,
                      /*amsgrad=*/false, /*maximize=*/false, gradDivisor, {});
}
#else
inline constexpr bool kHaveFusedAdamW = false;
inline void fusedAdamW(at::TensorList, at::TensorList, at::TensorList, at::TensorList, at::TensorList, double, double,
                       double, double, double, const c10::optional<at::Tensor>&)
{
    throw std::logic_error("ATen's fused AdamW needs LibTorch 2.1 or later");
}
#endif

// The key of a parameter's entry in an optimizer's state(): its TensorImpl,
// written as a string in 1.13, the pointer itself in 2.x.
#if TORCH_VERSION_MAJOR >= 2
inline void* optimizerStateKey(const torch::Tensor& p) { return p.unsafeGetTensorImpl(); }
#else
inline std::string optimizerStateKey(const torch::Tensor& p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }
#endif

} // namespace sb::engine
