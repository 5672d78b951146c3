#include "fused_adamw.hpp"

#include "torch_compat.hpp"

#include <ATen/Parallel.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace sb::engine {

namespace {

// LibTorch's scalars, in the fp32 its kernels compute with.
struct Coefficients {
    float gradScale, decay, beta1, oneMinusBeta1, beta2, oneMinusBeta2, sqrtCorrection2, eps, negStepSize;
};

// One pass of: p *= decay; m = m*b1 + (1-b1)*g; v = v*b2 + (1-b2)*g*g;
// p += -step * m / (sqrt(v) / sqrt(bc2) + eps), g scaled by the clipping
// factor: LibTorch's mul_, mul_/add_, mul_/addcmul_, sqrt/div/add_, addcdiv_.
// Built for AVX-512, AVX2 and baseline x86-64; the loader picks the best.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void updateSpan(float* __restrict p, const float* __restrict g, float* __restrict m, float* __restrict v,
                std::int64_t n, const Coefficients c)
{
    for (std::int64_t i = 0; i < n; ++i) {
        const float gi = g[i] * c.gradScale;
        const float mi = m[i] * c.beta1 + c.oneMinusBeta1 * gi;
        const float vi = v[i] * c.beta2 + c.oneMinusBeta2 * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i] * c.decay + c.negStepSize * (mi / (std::sqrt(vi) / c.sqrtCorrection2 + c.eps));
    }
}

// Sum of x[i]^2 in double, in 16 lanes the compiler keeps in vector
// registers (the fixed lane order makes the result independent of the build's
// vector width), then the lanes in order.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
double squaresSpan(const float* __restrict x, std::int64_t n)
{
    constexpr int kLanes = 16;
    double lane[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) {
            const double v = x[i + j];
            lane[j] += v * v;
        }
    for (int j = 0; i < n; ++i, ++j) {
        const double v = x[i];
        lane[j] += v * v;
    }
    double sum = 0.0;
    for (double l : lane) sum += l;
    return sum;
}

// p, its gradient and AdamW moments: dense, contiguous fp32 of p's size on p's device.
bool denseFp32(const torch::Tensor& p, const torch::Tensor& g, const torch::optim::AdamWParamState& s)
{
    for (const torch::Tensor* t : {&p, &g, &s.exp_avg(), &s.exp_avg_sq()})
        if (t->device() != p.device() || t->scalar_type() != torch::kFloat || !t->is_contiguous() || t->numel() != p.numel())
            return false;
    return !g.is_sparse();
}

// The one-pass CPU update below.
bool fusable(const torch::Tensor& p, const torch::Tensor& g, const torch::optim::AdamWParamState& s)
{
    return p.is_cpu() && denseFp32(p, g, s);
}

// The parameters of one group that ATen's fused CUDA kernel updates together.
struct DeviceBatch {
    std::vector<torch::Tensor> params, grads, expAvgs, expAvgSqs;
    std::vector<float> steps;
};

bool onFusedKernel(const torch::Tensor& p, const torch::Tensor& g, const torch::optim::AdamWParamState& s)
{
    return kHaveFusedAdamW && p.is_cuda() && denseFp32(p, g, s);
}

void runFusedKernel(DeviceBatch& b, const torch::optim::AdamWOptions& o, float scale)
{
    if (b.params.empty()) return;
    const torch::TensorOptions on = b.params.front().options();
    const std::vector<torch::Tensor> steps = torch::tensor(b.steps).to(on.device()).unbind(0);
    c10::optional<torch::Tensor> divisor;
    if (scale != 1.0f) divisor = torch::full({}, 1.0f / scale, on);
    fusedAdamW(b.params, b.grads, b.expAvgs, b.expAvgSqs, steps, o.lr(), std::get<0>(o.betas()), std::get<1>(o.betas()),
               o.weight_decay(), o.eps(), divisor);
    b = DeviceBatch{};
}

} // namespace

torch::Tensor FusedAdamW::step(LossClosure closure)
{
    torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) {
        at::AutoGradMode enable(true);
        loss = closure();
    }
    const float scale = gradScale_;
    gradScale_ = 1.0f;
    DeviceBatch onDevice;
    for (auto& group : param_groups_) {
        auto& options = static_cast<torch::optim::AdamWOptions&>(group.options());
        TORCH_CHECK(!options.amsgrad(), "FusedAdamW: amsgrad is not supported");
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            const auto key = optimizerStateKey(p);
            auto found = state_.find(key);
            if (found == state_.end()) {
                auto fresh = std::make_unique<torch::optim::AdamWParamState>();
                fresh->step(0);
                fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                found = state_.emplace(key, std::move(fresh)).first;
            }
            auto& state = static_cast<torch::optim::AdamWParamState&>(*found->second);
            state.step(state.step() + 1);
            const torch::Tensor& grad = p.grad();
            if (onFusedKernel(p, grad, state)) { // a GPU with LibTorch 2.x: one launch for the group
                onDevice.params.push_back(p);
                onDevice.grads.push_back(grad);
                onDevice.expAvgs.push_back(state.exp_avg());
                onDevice.expAvgSqs.push_back(state.exp_avg_sq());
                onDevice.steps.push_back(static_cast<float>(state.step()));
                continue;
            }
            const double beta1 = std::get<0>(options.betas()), beta2 = std::get<1>(options.betas());
            const double correction1 = 1 - std::pow(beta1, static_cast<double>(state.step()));
            const double correction2 = 1 - std::pow(beta2, static_cast<double>(state.step()));
            const double stepSize = options.lr() / correction1;
            const double decay = options.weight_decay() != 0 ? 1 - options.lr() * options.weight_decay() : 1.0;
            if (!fusable(p, grad, state)) { // LibTorch's own sequence (other dtypes, a GPU with 1.13)
                const torch::Tensor g = scale == 1.0f ? grad : grad * scale;
                if (options.weight_decay() != 0) p.mul_(decay);
                state.exp_avg().mul_(beta1).add_(g, 1 - beta1);
                state.exp_avg_sq().mul_(beta2).addcmul_(g, g, 1 - beta2);
                const torch::Tensor denom = (state.exp_avg_sq().sqrt() / std::sqrt(correction2)).add_(options.eps());
                p.addcdiv_(state.exp_avg(), denom, -stepSize);
                continue;
            }
            const Coefficients c{scale,
                                 static_cast<float>(decay),
                                 static_cast<float>(beta1),
                                 static_cast<float>(1 - beta1),
                                 static_cast<float>(beta2),
                                 static_cast<float>(1 - beta2),
                                 static_cast<float>(std::sqrt(correction2)),
                                 static_cast<float>(options.eps()),
                                 static_cast<float>(-stepSize)};
            float* pd = p.data_ptr<float>();
            const float* gd = grad.data_ptr<float>();
            float* md = state.exp_avg().data_ptr<float>();
            float* vd = state.exp_avg_sq().data_ptr<float>();
            at::parallel_for(0, p.numel(), 1 << 15, [&](std::int64_t begin, std::int64_t end) {
                updateSpan(pd + begin, gd + begin, md + begin, vd + begin, end - begin, c);
            });
        }
        runFusedKernel(onDevice, options, scale);
    }
    return loss;
}

bool sumsSquaresInPlace(const torch::Tensor& t)
{
    return t.is_cpu() && t.scalar_type() == torch::kFloat && t.is_contiguous();
}

double sumOfSquares(const torch::Tensor& t)
{
    if (sumsSquaresInPlace(t)) return squaresSpan(t.data_ptr<float>(), t.numel());
    return t.to(torch::kDouble).pow(2).sum().item<double>();
}

float clipFactor(const std::vector<torch::Tensor>& params, double maxNorm, double& norm)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> norms;
    for (const torch::Tensor& p : params)
        if (p.grad().defined()) norms.push_back(p.grad().norm(2));
    if (norms.empty()) {
        norm = 0.0;
        return 1.0f;
    }
    // clip_grad_norm_'s own expressions, so the factor has the same bits.
    const torch::Tensor total = norms.size() == 1 ? norms[0] : torch::stack(norms).norm(2);
    const torch::Tensor factor = torch::clamp_max(maxNorm / (total + 1e-6), 1.0);
    norm = total.item<double>();
    return factor.item<float>();
}

} // namespace sb::engine
