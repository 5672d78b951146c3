#include "dense_layer.hpp"

#include "dense_bf16.hpp"
#include "reference_switch.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sb::engine {

namespace {

// oneDNN's C entry point (dnnl.h): row-major C = alpha op(A) op(B) + beta C,
// returning dnnl_status_t (0: success). Declared here so that the build needs
// no oneDNN headers: the symbol is looked up in the process at run time.
using Sgemm = int (*)(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                      const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                      std::int64_t ldc);

Sgemm sgemm()
{
    static const auto fn = reinterpret_cast<Sgemm>(dlsym(RTLD_DEFAULT, "dnnl_sgemm"));
    return fn;
}

// C[m, n] = op(A) op(B) (+ C when accumulate), row-major, contiguous rows of the given strides.
void product(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
             const float* b, std::int64_t ldb, bool accumulate, float* c, std::int64_t ldc)
{
    const int status = sgemm()(transA, transB, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
    if (status != 0) throw std::runtime_error("oneDNN's sgemm failed (status " + std::to_string(status) + ")");
}

// fp32: y = x W^T + b (W [out, in]) or x W + b (W [in, out]).
torch::Tensor forwardFp32(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, bool outIn)
{
    const std::int64_t T = x.size(0), in = x.size(1), out = outIn ? w.size(0) : w.size(1);
    // The bias copied into every row (not expand().contiguous(): with one
    // row that is the bias itself, which the product would then overwrite).
    torch::Tensor y = torch::empty({T, out}, x.options());
    if (b.defined()) y.copy_(b.expand({T, out}));
    product('N', outIn ? 'T' : 'N', T, out, in, x.data_ptr<float>(), in, w.data_ptr<float>(), outIn ? in : out, b.defined(),
            y.data_ptr<float>(), out);
    return y;
}

// fp32: dx = dy W (W stored [out, in]) or dy W^T (stored [in, out]).
torch::Tensor inputGradFp32(const torch::Tensor& dy, const torch::Tensor& w, bool outIn)
{
    const std::int64_t T = dy.size(0), out = dy.size(1), in = outIn ? w.size(1) : w.size(0);
    torch::Tensor dx = torch::empty({T, in}, dy.options());
    product('N', outIn ? 'N' : 'T', T, in, out, dy.data_ptr<float>(), out, w.data_ptr<float>(), outIn ? in : out, false,
            dx.data_ptr<float>(), in);
    return dx;
}

torch::Tensor weightGradFp32(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w, bool outIn)
{
    const std::int64_t T = x.size(0), in = x.size(1), out = dy.size(1);
    torch::Tensor dw = torch::empty_like(w, torch::MemoryFormat::Contiguous);
    if (outIn) // dW [out, in] = dy^T x
        product('T', 'N', out, in, T, dy.data_ptr<float>(), out, x.data_ptr<float>(), in, false, dw.data_ptr<float>(), in);
    else // dW [in, out] = x^T dy
        product('T', 'N', in, out, T, x.data_ptr<float>(), in, dy.data_ptr<float>(), out, false, dw.data_ptr<float>(), out);
    return dw;
}

// bf16 where oneDNN's bf16 matmul is not taken (a CPU without AVX512 BW/VL/DQ,
// or a build without oneDNN's headers): the products in fp32 by this file's
// sgemm from the bf16 values (exact), the bias added in fp32, each result
// rounded once to bf16, as PyTorch 2's bf16 products are on every CPU.
// LibTorch 1.13's own bf16 gemm there accumulates x W (Conv1D's layout) in
// bf16: three outputs in four off the value rounded once. The operands are
// widened a block at a time (kBlock rows of x or dy, kBlock output features
// of W), so the fp32 copies stay small whatever the layer's size (128 KiB
// each for 256 input features): whole copies of a 16k-vocabulary head and its
// logits raised the bf16 plans' measured peaks by a quarter (engine_memory),
// and blocks of 512 still by 7 % on the small model.
constexpr std::int64_t kBlock = 128;

torch::Tensor widened(const torch::Tensor& t) { return t.to(torch::kFloat).contiguous(); }

// Output features [o0, o1) of W as fp32: rows of [out, in], or columns of [in, out].
torch::Tensor weightBlock(const torch::Tensor& w, bool outIn, std::int64_t o0, std::int64_t o1)
{
    return widened(w.slice(outIn ? 0 : 1, o0, o1));
}

torch::Tensor forwardBf16(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, bool outIn)
{
    const std::int64_t T = x.size(0), in = x.size(1), out = outIn ? w.size(0) : w.size(1);
    torch::Tensor y = torch::empty({T, out}, x.options());
    for (std::int64_t t0 = 0; t0 < T; t0 += kBlock) {
        const std::int64_t t1 = std::min(T, t0 + kBlock), rows = t1 - t0;
        const torch::Tensor xs = widened(x.slice(0, t0, t1));
        for (std::int64_t o0 = 0; o0 < out; o0 += kBlock) {
            const std::int64_t o1 = std::min(out, o0 + kBlock), cols = o1 - o0;
            const torch::Tensor ws = weightBlock(w, outIn, o0, o1);
            torch::Tensor ys = b.defined() ? widened(b.slice(0, o0, o1).expand({rows, cols})) : torch::empty({rows, cols}, xs.options());
            product('N', outIn ? 'T' : 'N', rows, cols, in, xs.data_ptr<float>(), in, ws.data_ptr<float>(), outIn ? in : cols,
                    b.defined(), ys.data_ptr<float>(), cols);
            y.slice(0, t0, t1).slice(1, o0, o1).copy_(ys); // the one rounding
        }
    }
    return y;
}

torch::Tensor inputGradBf16(const torch::Tensor& dy, const torch::Tensor& w, bool outIn)
{
    const std::int64_t T = dy.size(0), out = dy.size(1), in = outIn ? w.size(1) : w.size(0);
    torch::Tensor dx = torch::empty({T, in}, dy.options());
    for (std::int64_t t0 = 0; t0 < T; t0 += kBlock) {
        const std::int64_t t1 = std::min(T, t0 + kBlock), rows = t1 - t0;
        torch::Tensor sum = torch::empty({rows, in}, dy.options().dtype(torch::kFloat));
        for (std::int64_t o0 = 0; o0 < out; o0 += kBlock) {
            const std::int64_t o1 = std::min(out, o0 + kBlock), cols = o1 - o0;
            const torch::Tensor dys = widened(dy.slice(0, t0, t1).slice(1, o0, o1));
            const torch::Tensor ws = weightBlock(w, outIn, o0, o1); // [cols, in] or [in, cols]
            product('N', outIn ? 'N' : 'T', rows, in, cols, dys.data_ptr<float>(), cols, ws.data_ptr<float>(), outIn ? in : cols,
                    o0 > 0, sum.data_ptr<float>(), in);
        }
        dx.slice(0, t0, t1).copy_(sum);
    }
    return dx;
}

torch::Tensor weightGradBf16(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w, bool outIn)
{
    const std::int64_t T = x.size(0), in = x.size(1), out = dy.size(1);
    torch::Tensor dw = torch::empty(w.sizes(), x.options());
    for (std::int64_t o0 = 0; o0 < out; o0 += kBlock) {
        const std::int64_t o1 = std::min(out, o0 + kBlock), cols = o1 - o0;
        torch::Tensor sum = outIn ? torch::empty({cols, in}, x.options().dtype(torch::kFloat))
                                  : torch::empty({in, cols}, x.options().dtype(torch::kFloat));
        for (std::int64_t t0 = 0; t0 < T; t0 += kBlock) {
            const std::int64_t t1 = std::min(T, t0 + kBlock), rows = t1 - t0;
            const torch::Tensor dys = widened(dy.slice(0, t0, t1).slice(1, o0, o1));
            const torch::Tensor xs = widened(x.slice(0, t0, t1));
            if (outIn) // dW rows [cols, in] = dy^T x
                product('T', 'N', cols, in, rows, dys.data_ptr<float>(), cols, xs.data_ptr<float>(), in, t0 > 0, sum.data_ptr<float>(), in);
            else // dW columns [in, cols] = x^T dy
                product('T', 'N', in, cols, rows, xs.data_ptr<float>(), in, dys.data_ptr<float>(), cols, t0 > 0, sum.data_ptr<float>(), cols);
        }
        dw.slice(outIn ? 0 : 1, o0, o1).copy_(sum);
    }
    return dw;
}

bool bf16ThroughFp32() { return !haveDnnlBf16Dense(); }

// The layer's products in its dtype: this file's fp32 sgemm, or oneDNN's bf16
// matmul (dense_bf16.hpp), or bf16 through fp32.
torch::Tensor forwardOf(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    if (x.scalar_type() != torch::kBFloat16) return forwardFp32(x, w, b, outIn);
    if (bf16ThroughFp32()) return forwardBf16(x, w, b, outIn);
    return denseBf16Forward(x, w, b, layout);
}

torch::Tensor inputGradOf(const torch::Tensor& dy, const torch::Tensor& w, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    if (dy.scalar_type() != torch::kBFloat16) return inputGradFp32(dy, w, outIn);
    if (bf16ThroughFp32()) return inputGradBf16(dy, w, outIn);
    return denseBf16InputGrad(dy, w, layout);
}

torch::Tensor weightGradOf(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    if (dy.scalar_type() != torch::kBFloat16) return weightGradFp32(dy, x, w, outIn);
    if (bf16ThroughFp32()) return weightGradBf16(dy, x, w, outIn);
    return denseBf16WeightGrad(dy, x, w, layout);
}

class DenseFn : public torch::autograd::Function<DenseFn> {
public:
    // x [T, in] contiguous; w [out, in] or [in, out]; b [out] or undefined.
    // (The bias is optional: autograd refuses an undefined tensor argument.)
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& w,
                                 const c10::optional<torch::Tensor>& b, std::int64_t layout)
    {
        ctx->save_for_backward({x, w});
        ctx->saved_data["layout"] = layout;
        ctx->saved_data["bias"] = b.has_value();
        return forwardOf(x, w, b.value_or(torch::Tensor()), static_cast<WeightLayout>(layout));
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& x = saved[0];
        const torch::Tensor& w = saved[1];
        const auto layout = static_cast<WeightLayout>(ctx->saved_data["layout"].toInt());
        torch::Tensor dx, dw, db;
        if (!grads[0].defined()) return {dx, dw, db, torch::Tensor()};
        const torch::Tensor dy = grads[0].to(x.scalar_type()).contiguous();
        if (ctx->needs_input_grad(0)) dx = inputGradOf(dy, w, layout);
        if (ctx->needs_input_grad(1)) dw = weightGradOf(dy, x, w, layout);
        if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) db = dy.sum(0);
        return {dx, dw, db, torch::Tensor()};
    }
};

// Whether the layer's own products take it (fp32: this file's sgemm; bf16:
// oneDNN's matmul, dense_bf16.hpp), else ATen computes it.
bool ownProducts(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    if (referenceLinearForced()) return false;
    if (w.dim() != 2 || !w.is_contiguous() || x.dim() < 1 || x.numel() == 0 || w.numel() == 0) return false;
    const std::int64_t in = layout == WeightLayout::OutIn ? w.size(1) : w.size(0);
    const std::int64_t out = layout == WeightLayout::OutIn ? w.size(0) : w.size(1);
    if (x.size(-1) != in || (b.defined() && (b.dim() != 1 || b.size(0) != out))) return false;
    const auto all = [&](torch::ScalarType type) {
        for (const torch::Tensor* t : {&x, &w, &b})
            if (t->defined() && (!t->device().is_cpu() || t->scalar_type() != type)) return false;
        return true;
    };
    if (all(torch::kFloat)) return haveDnnlSgemm();
    // bf16 where PyTorch's F.linear is one addmm (2-D, or contiguous 3-D
    // inputs; otherwise it rounds the product and the bias sum apart).
    const bool oneAddmm = layout == WeightLayout::InOut || x.dim() == 2 || (x.dim() == 3 && x.is_contiguous());
    if (!all(torch::kBFloat16) || !oneAddmm) return false;
    if (bf16ThroughFp32()) return haveDnnlSgemm();
    const std::int64_t rows = x.numel() / in;
    return rows * in * out > kDnnlBf16MinProduct; // else ATen's own product
}

torch::Tensor atenLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    if (layout == WeightLayout::OutIn) return torch::linear(x, w, b);
    auto sizes = x.sizes().vec();
    sizes.back() = w.size(1);
    const torch::Tensor rows = x.reshape({-1, x.size(-1)});
    return (b.defined() ? torch::addmm(b, rows, w) : rows.mm(w)).view(sizes);
}

} // namespace

bool referenceLinearForced() { return forcedToReference("SB_LINEAR"); }

bool haveDnnlSgemm() { return sgemm() != nullptr; }

torch::Tensor denseLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    if (!ownProducts(x, w, b, layout)) return atenLayer(x, w, b, layout);
    auto sizes = x.sizes().vec();
    sizes.back() = layout == WeightLayout::OutIn ? w.size(0) : w.size(1);
    const torch::Tensor rows = x.reshape({-1, x.size(-1)}).contiguous();
    const bool graph = torch::GradMode::is_enabled() && (x.requires_grad() || w.requires_grad() || (b.defined() && b.requires_grad()));
    const torch::Tensor y = graph ? DenseFn::apply(rows, w, b.defined() ? c10::optional<torch::Tensor>(b) : c10::nullopt,
                                                   static_cast<std::int64_t>(layout))
                                  : forwardOf(rows, w, b, layout);
    return y.view(sizes);
}

} // namespace sb::engine
