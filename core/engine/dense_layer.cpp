#include "dense_layer.hpp"

#include "bf16_span.hpp"
#include "onednn_gemm.hpp"
#include "reference_switch.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sb::engine {

namespace {

// C[m, n] = op(A) op(B) (+ C when accumulate), row-major, contiguous rows of the given strides.
void product(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
             const float* b, std::int64_t ldb, bool accumulate, float* c, std::int64_t ldc)
{
    onednn::sgemm(transA, transB, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
}

// A bf16 product's fp32 results go through scratch rows of at most this many
// floats (4 MiB; or 16 rows where a row is longer) before they are rounded.
constexpr std::int64_t kScratchFloats = std::int64_t{1} << 20;

// out [rows, n] bf16 = round(P + bias) for the fp32 product P whose rows
// r0..r0+m-1 rowsOf(r0, m, c) writes into c (leading dimension n): in row
// blocks, each rounded while it is still in cache. bias: n floats, or null.
template <typename RowsOf>
void roundedProduct(std::int64_t rows, std::int64_t n, const float* bias, std::uint16_t* out, RowsOf rowsOf)
{
    const std::int64_t block = std::max<std::int64_t>(16, kScratchFloats / std::max<std::int64_t>(n, 1));
    std::vector<float> scratch(static_cast<std::size_t>(std::min(rows, block) * n));
    for (std::int64_t r0 = 0; r0 < rows; r0 += block) {
        const std::int64_t m = std::min(block, rows - r0);
        rowsOf(r0, m, scratch.data());
        if (bias)
            for (std::int64_t i = 0; i < m; ++i) {
                float* row = scratch.data() + i * n;
                for (std::int64_t j = 0; j < n; ++j) row[j] += bias[j];
            }
        narrowSpan(scratch.data(), out + r0 * n, m * n);
    }
}

const std::uint16_t* bf16Bits(const torch::Tensor& t) { return bitsOf(t.data_ptr<at::BFloat16>()); }

// The three products of a layer in fp32 (dnnl_sgemm straight into the
// results) or in bf16 (dnnl_gemm_bf16bf16f32 into fp32 rows, rounded once
// into bf16 results: what ATen's bf16 addmm and mm compute, one rounding each,
// the bias added before it).
struct Products {
    bool outIn;
    std::int64_t T, in, out;

    // y [T, out] = x W^T (OutIn) or x W (InOut), plus b.
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) const
    {
        torch::Tensor y = torch::empty({T, out}, x.options());
        const char tw = outIn ? 'T' : 'N';
        const std::int64_t ldw = outIn ? in : out;
        if (x.scalar_type() == torch::kBFloat16) {
            std::vector<float> bias;
            if (b.defined()) {
                bias.resize(static_cast<std::size_t>(out));
                widenSpan(bf16Bits(b), bias.data(), out);
            }
            roundedProduct(T, out, b.defined() ? bias.data() : nullptr, bitsOf(y.data_ptr<at::BFloat16>()),
                           [&](std::int64_t r0, std::int64_t m, float* c) {
                               onednn::gemmBf16('N', tw, m, out, in, 1.0f, bf16Bits(x) + r0 * in, in, bf16Bits(w), ldw,
                                                0.0f, c, out);
                           });
            return y;
        }
        // The bias copied into every row (not expand().contiguous(): with one
        // row that is the bias itself, which the product would then overwrite).
        if (b.defined()) y.copy_(b.expand({T, out}));
        product('N', tw, T, out, in, x.data_ptr<float>(), in, w.data_ptr<float>(), ldw, b.defined(), y.data_ptr<float>(),
                out);
        return y;
    }

    // dx [T, in] = dy W (W stored [out, in]) or dy W^T (stored [in, out]).
    torch::Tensor inputGrad(const torch::Tensor& dy, const torch::Tensor& w) const
    {
        torch::Tensor dx = torch::empty({T, in}, dy.options());
        const char tw = outIn ? 'N' : 'T';
        const std::int64_t ldw = outIn ? in : out;
        if (dy.scalar_type() == torch::kBFloat16) {
            roundedProduct(T, in, nullptr, bitsOf(dx.data_ptr<at::BFloat16>()), [&](std::int64_t r0, std::int64_t m, float* c) {
                onednn::gemmBf16('N', tw, m, in, out, 1.0f, bf16Bits(dy) + r0 * out, out, bf16Bits(w), ldw, 0.0f, c, in);
            });
            return dx;
        }
        product('N', tw, T, in, out, dy.data_ptr<float>(), out, w.data_ptr<float>(), ldw, false, dx.data_ptr<float>(), in);
        return dx;
    }

    // dW [out, in] = dy^T x (OutIn), or [in, out] = x^T dy (InOut).
    torch::Tensor weightGrad(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w) const
    {
        torch::Tensor dw = torch::empty_like(w, torch::MemoryFormat::Contiguous);
        // rows x cols = a^T b, a [T, rows] and b [T, cols]
        const torch::Tensor& a = outIn ? dy : x;
        const torch::Tensor& b = outIn ? x : dy;
        const std::int64_t rows = outIn ? out : in, cols = outIn ? in : out;
        if (dy.scalar_type() == torch::kBFloat16) {
            roundedProduct(rows, cols, nullptr, bitsOf(dw.data_ptr<at::BFloat16>()), [&](std::int64_t r0, std::int64_t m, float* c) {
                onednn::gemmBf16('T', 'N', m, cols, T, 1.0f, bf16Bits(a) + r0, rows, bf16Bits(b), cols, 0.0f, c, cols);
            });
            return dw;
        }
        product('T', 'N', rows, cols, T, a.data_ptr<float>(), rows, b.data_ptr<float>(), cols, false, dw.data_ptr<float>(),
                cols);
        return dw;
    }
};

Products productsOf(const torch::Tensor& x, const torch::Tensor& w, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    return {outIn, x.size(0), x.size(1), outIn ? w.size(0) : w.size(1)};
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
        return productsOf(x, w, static_cast<WeightLayout>(layout)).forward(x, w, b.value_or(torch::Tensor()));
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& x = saved[0];
        const torch::Tensor& w = saved[1];
        const Products products = productsOf(x, w, static_cast<WeightLayout>(ctx->saved_data["layout"].toInt()));
        const bool bias = ctx->saved_data["bias"].toBool();
        torch::Tensor dx, dw, db;
        if (!grads[0].defined()) return {dx, dw, db, torch::Tensor()};
        const torch::Tensor dy = grads[0].to(x.scalar_type()).contiguous();
        if (ctx->needs_input_grad(0)) dx = products.inputGrad(dy, w);
        if (ctx->needs_input_grad(1)) dw = products.weightGrad(dy, x, w);
        if (bias && ctx->needs_input_grad(2)) db = dy.sum(0);
        return {dx, dw, db, torch::Tensor()};
    }
};

bool applies(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    const auto type = x.scalar_type();
    if (referenceLinearForced() || !ownProducts(type)) return false;
    for (const torch::Tensor* t : {&x, &w, &b})
        if (t->defined() && (!t->device().is_cpu() || t->scalar_type() != type)) return false;
    if (w.dim() != 2 || !w.is_contiguous() || x.dim() < 1 || x.numel() == 0 || w.numel() == 0) return false;
    const std::int64_t in = layout == WeightLayout::OutIn ? w.size(1) : w.size(0);
    const std::int64_t out = layout == WeightLayout::OutIn ? w.size(0) : w.size(1);
    return x.size(-1) == in && (!b.defined() || (b.dim() == 1 && b.size(0) == out && b.is_contiguous()));
}

torch::Tensor atenLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    if (layout == WeightLayout::OutIn) return torch::nn::functional::linear(x, w, b);
    auto sizes = x.sizes().vec();
    sizes.back() = w.size(1);
    const torch::Tensor rows = x.reshape({-1, x.size(-1)});
    return (b.defined() ? torch::addmm(b, rows, w) : rows.mm(w)).view(sizes);
}

} // namespace

bool referenceLinearForced() { return forcedToReference("SB_LINEAR"); }

bool ownProducts(torch::ScalarType type)
{
    return type == torch::kFloat ? onednn::haveSgemm() : type == torch::kBFloat16 && onednn::haveGemmBf16();
}

torch::Tensor denseLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    if (!applies(x, w, b, layout)) return atenLayer(x, w, b, layout);
    auto sizes = x.sizes().vec();
    sizes.back() = layout == WeightLayout::OutIn ? w.size(0) : w.size(1);
    const torch::Tensor rows = x.reshape({-1, x.size(-1)}).contiguous();
    const bool graph = torch::GradMode::is_enabled() && (x.requires_grad() || w.requires_grad() || (b.defined() && b.requires_grad()));
    const torch::Tensor y = graph ? DenseFn::apply(rows, w, b.defined() ? c10::optional<torch::Tensor>(b) : c10::nullopt,
                                                   static_cast<std::int64_t>(layout))
                                  : productsOf(rows, w, layout).forward(rows, w, b);
    return y.view(sizes);
}

} // namespace sb::engine
