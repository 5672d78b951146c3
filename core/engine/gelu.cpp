#include "gelu.hpp"

#include "bf16_span.hpp"
#include "fast_exp.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sb::engine {

namespace {

constexpr float kInvSqrt2 = 0.70710678118654752f;
constexpr float kInvSqrt2Pi = 0.39894228040143268f; // the normal density's 1 / sqrt(2 pi)
constexpr float kSqrt2OverPi = 0.79788456080286536f;
constexpr float kCubic = 0.044715f;

// 1 + erf(x / sqrt 2) = 2 Phi(x), and exp(-x^2 / 2). Abramowitz-Stegun 7.1.26
// gives erfc(z) for z = |x| / sqrt 2 >= 0 as poly(t) exp(-z^2); the negative
// side is erfc itself (no 1 - erf cancellation), the positive side 2 - erfc.
struct ErfTerms {
    float onePlusErf, density; // density: exp(-x^2 / 2)
};

inline ErfTerms erfTerms(float x)
{
    const float z = std::abs(x) * kInvSqrt2;
    const float t = 1.0f / (1.0f + 0.3275911f * z);
    const float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    const float e = expOf(-z * z);
    const float erfc = poly * e;
    return {x >= 0.0f ? 2.0f - erfc : erfc, e};
}

// s = sigmoid(2u) with u = sqrt(2/pi) (x + 0.044715 x^3), which is
// 0.5 (1 + tanh u), so that the tanh form is x * s; and 1 - s, as e^(-2u) s
// (no cancellation where s nears 1).
struct TanhGate {
    float s, oneMinusS;
};

inline TanhGate tanhGate(float x)
{
    const float u = kSqrt2OverPi * (x + kCubic * x * x * x);
    const float e = expOf(-2.0f * u);
    const float s = 1.0f / (1.0f + e);
    return {s, e * s};
}

inline float geluOf(float x, GeluForm form)
{
    if (form == GeluForm::Erf) return 0.5f * x * erfTerms(x).onePlusErf;
    return x * tanhGate(x).s;
}

inline float geluSlope(float x, GeluForm form)
{
    if (form == GeluForm::Erf) {
        const ErfTerms e = erfTerms(x);
        return 0.5f * e.onePlusErf + x * e.density * kInvSqrt2Pi;
    }
    const TanhGate g = tanhGate(x);
    return g.s + 2.0f * x * g.s * g.oneMinusS * kSqrt2OverPi * (1.0f + 3.0f * kCubic * x * x);
}

// The form is a template parameter so that each loop body is straight-line code.
template <GeluForm F>
SB_VECTOR_CLONES void forwardFp32(const float* __restrict x, float* __restrict y, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) y[i] = geluOf(x[i], F);
}

template <GeluForm F>
SB_VECTOR_CLONES void backwardFp32(const float* __restrict x, const float* dy, float* dx, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) dx[i] = dy[i] * geluSlope(x[i], F);
}

// bf16 has 65,536 values: its GELU and slope are tables, filled once per form
// by the fp32 loops above (widened input, GELU rounded once; slope as fp32),
// so a bf16 pass is a lookup per element, with the same bits as widening,
// computing and narrowing each element (backward multiplies dy by the same
// fp32 slope the loop would). 384 KiB a form; the part a layer touches is
// small (activations span a few binades of 128 values each). Scalar loops:
// an AVX-512 gather is slower than scalar loads on Zen 4.
struct Bf16Tables {
    static constexpr std::int64_t kBf16Values = 65536;
    std::vector<std::uint16_t> gelu = std::vector<std::uint16_t>(kBf16Values);
    std::vector<float> slope = std::vector<float>(kBf16Values);
};

template <GeluForm F>
const Bf16Tables& bf16Tables()
{
    static const Bf16Tables tables = [] {
        Bf16Tables t;
        std::vector<std::uint16_t> bits(Bf16Tables::kBf16Values);
        for (std::int64_t i = 0; i < Bf16Tables::kBf16Values; ++i) bits[i] = static_cast<std::uint16_t>(i);
        std::vector<float> x(Bf16Tables::kBf16Values), y(Bf16Tables::kBf16Values), ones(Bf16Tables::kBf16Values, 1.0f);
        widenSpan(bits.data(), x.data(), Bf16Tables::kBf16Values);
        forwardFp32<F>(x.data(), y.data(), Bf16Tables::kBf16Values);
        narrowSpan(y.data(), t.gelu.data(), Bf16Tables::kBf16Values);
        backwardFp32<F>(x.data(), ones.data(), t.slope.data(), Bf16Tables::kBf16Values); // 1 * slope: the slope itself
        return t;
    }();
    return tables;
}

template <GeluForm F>
void forwardBf16(const std::uint16_t* x, std::uint16_t* y, std::int64_t n)
{
    const std::uint16_t* gelu = bf16Tables<F>().gelu.data();
    for (std::int64_t i = 0; i < n; ++i) y[i] = gelu[x[i]];
}

// s[i] = table[x[i]].
void lookUp(const float* __restrict table, const std::uint16_t* __restrict x, float* __restrict s, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) s[i] = table[x[i]];
}

SB_VECTOR_CLONES void multiplyInto(const float* __restrict s, float* __restrict g, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) g[i] *= s[i];
}

// Products in blocks that stay in L1, narrowed by the vectorised narrowSpan.
constexpr std::int64_t kBlock = 512;

template <GeluForm F>
void backwardBf16(const std::uint16_t* x, const std::uint16_t* dy, std::uint16_t* dx, std::int64_t n)
{
    const float* slope = bf16Tables<F>().slope.data();
    alignas(64) float ss[kBlock], gs[kBlock];
    for (std::int64_t i = 0; i < n; i += kBlock) {
        const std::int64_t m = std::min(kBlock, n - i);
        lookUp(slope, x + i, ss, m);
        widenSpan(dy + i, gs, m);
        multiplyInto(ss, gs, m);
        narrowSpan(gs, dx + i, m);
    }
}

constexpr std::int64_t kGrain = 1 << 15;

// Forward or backward over a whole tensor, split over ATen's intra-op threads.
void forwardTensor(const torch::Tensor& x, const torch::Tensor& y, GeluForm form)
{
    at::parallel_for(0, x.numel(), kGrain, [&](std::int64_t begin, std::int64_t end) {
        const std::int64_t n = end - begin;
        if (x.scalar_type() == torch::kFloat) {
            geluForwardSpan(x.data_ptr<float>() + begin, y.data_ptr<float>() + begin, n, form);
            return;
        }
        const auto* in = bitsOf(x.data_ptr<at::BFloat16>()) + begin;
        auto* out = bitsOf(y.data_ptr<at::BFloat16>()) + begin;
        form == GeluForm::Erf ? forwardBf16<GeluForm::Erf>(in, out, n) : forwardBf16<GeluForm::Tanh>(in, out, n);
    });
}

void backwardTensor(const torch::Tensor& x, const torch::Tensor& dy, const torch::Tensor& dx, GeluForm form)
{
    at::parallel_for(0, x.numel(), kGrain, [&](std::int64_t begin, std::int64_t end) {
        const std::int64_t n = end - begin;
        if (x.scalar_type() == torch::kFloat) {
            geluBackwardSpan(x.data_ptr<float>() + begin, dy.data_ptr<float>() + begin, dx.data_ptr<float>() + begin, n,
                             form);
            return;
        }
        const auto* in = bitsOf(x.data_ptr<at::BFloat16>()) + begin;
        const auto* grad = bitsOf(dy.data_ptr<at::BFloat16>()) + begin;
        auto* out = bitsOf(dx.data_ptr<at::BFloat16>()) + begin;
        form == GeluForm::Erf ? backwardBf16<GeluForm::Erf>(in, grad, out, n)
                              : backwardBf16<GeluForm::Tanh>(in, grad, out, n);
    });
}

class GeluFn : public torch::autograd::Function<GeluFn> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, std::int64_t form)
    {
        ctx->save_for_backward({x});
        ctx->saved_data["form"] = form;
        torch::Tensor y = torch::empty_like(x, torch::MemoryFormat::Contiguous);
        forwardTensor(x, y, static_cast<GeluForm>(form));
        return y;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const torch::Tensor x = ctx->get_saved_variables()[0];
        if (!grads[0].defined()) return {torch::Tensor(), torch::Tensor()};
        const torch::Tensor dy = grads[0].to(x.scalar_type()).contiguous();
        torch::Tensor dx = torch::empty_like(x, torch::MemoryFormat::Contiguous);
        backwardTensor(x, dy, dx, static_cast<GeluForm>(ctx->saved_data["form"].toInt()));
        return {dx, torch::Tensor()};
    }
};

bool applies(const torch::Tensor& x)
{
    return x.device().is_cpu() && (x.scalar_type() == torch::kFloat || x.scalar_type() == torch::kBFloat16) &&
           x.is_contiguous() && x.numel() > 0 && !referenceGeluForced();
}

} // namespace

bool referenceGeluForced() { return forcedToReference("SB_GELU"); }

void geluForwardSpan(const float* x, float* y, std::int64_t n, GeluForm form)
{
    form == GeluForm::Erf ? forwardFp32<GeluForm::Erf>(x, y, n) : forwardFp32<GeluForm::Tanh>(x, y, n);
}

void geluBackwardSpan(const float* x, const float* dy, float* dx, std::int64_t n, GeluForm form)
{
    form == GeluForm::Erf ? backwardFp32<GeluForm::Erf>(x, dy, dx, n) : backwardFp32<GeluForm::Tanh>(x, dy, dx, n);
}

torch::Tensor applyGelu(const torch::Tensor& x, GeluForm form)
{
    if (!applies(x)) return torch::gelu(x, form == GeluForm::Erf ? "none" : "tanh");
    if (x.requires_grad() && torch::GradMode::is_enabled()) return GeluFn::apply(x, static_cast<std::int64_t>(form));
    torch::Tensor y = torch::empty_like(x, torch::MemoryFormat::Contiguous);
    forwardTensor(x, y, form);
    return y;
}

} // namespace sb::engine
