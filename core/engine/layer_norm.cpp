#include "layer_norm.hpp"

#include "bf16_span.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sb::engine {

namespace {

// Sums over a row in 16 lanes, which the compiler vectorises (a single float
// accumulator would be a serial chain it may not reorder).
constexpr std::int64_t kLanes = 16;

// The lanes' total as a pairwise tree (halves added vector-wide): four
// dependent adds where a running sum over the lanes would chain sixteen, a
// row's largest serial cost.
inline float laneTotal(const float (&acc)[kLanes])
{
    static_assert(kLanes == 16);
    float half[8], quarter[4];
    for (int j = 0; j < 8; ++j) half[j] = acc[j] + acc[j + 8];
    for (int j = 0; j < 4; ++j) quarter[j] = half[j] + half[j + 4];
    return (quarter[0] + quarter[2]) + (quarter[1] + quarter[3]);
}

struct Moments {
    float mean, rstd;
};

SB_VECTOR_CLONES Moments momentsOf(const float* __restrict x, std::int64_t n, float eps)
{
    float acc[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (std::int64_t j = 0; j < kLanes; ++j) acc[j] += x[i + j];
    float sum = laneTotal(acc);
    for (; i < n; ++i) sum += x[i];
    const float mean = sum / static_cast<float>(n);
    float sq[kLanes] = {};
    i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (std::int64_t j = 0; j < kLanes; ++j) {
            const float d = x[i + j] - mean;
            sq[j] += d * d;
        }
    float sumSq = laneTotal(sq);
    for (; i < n; ++i) sumSq += (x[i] - mean) * (x[i] - mean);
    return {mean, 1.0f / std::sqrt(sumSq / static_cast<float>(n) + eps)};
}

SB_VECTOR_CLONES void normalise(const float* __restrict x, Moments m, const float* __restrict w, const float* __restrict b,
                                float* __restrict y, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) y[i] = (x[i] - m.mean) * m.rstd * w[i] + b[i];
}

// One row's backward: dx, and the row's terms added to dw and db. x is
// overwritten with xhat.
SB_VECTOR_CLONES void backwardRow(float* __restrict x, const float* __restrict dy, Moments m, const float* __restrict w,
                                  float* __restrict dx, float* __restrict dw, float* __restrict db, std::int64_t n)
{
    float accG[kLanes] = {}, accGx[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (std::int64_t j = 0; j < kLanes; ++j) {
            const std::int64_t k = i + j;
            const float xhat = (x[k] - m.mean) * m.rstd, g = dy[k] * w[k];
            x[k] = xhat;
            dx[k] = g;
            accG[j] += g;
            accGx[j] += g * xhat;
            dw[k] += dy[k] * xhat;
            db[k] += dy[k];
        }
    float sumG = laneTotal(accG), sumGx = laneTotal(accGx);
    for (; i < n; ++i) {
        const float xhat = (x[i] - m.mean) * m.rstd, g = dy[i] * w[i];
        x[i] = xhat;
        dx[i] = g;
        sumG += g;
        sumGx += g * xhat;
        dw[i] += dy[i] * xhat;
        db[i] += dy[i];
    }
    const float meanG = sumG / static_cast<float>(n), meanGx = sumGx / static_cast<float>(n);
    for (std::int64_t k = 0; k < n; ++k) dx[k] = m.rstd * (dx[k] - meanG - x[k] * meanGx);
}

std::uint16_t* bf16Of(const torch::Tensor& t) { return bitsOf(t.data_ptr<at::BFloat16>()); }

std::vector<float> widened(const torch::Tensor& t)
{
    std::vector<float> f(static_cast<std::size_t>(t.numel()));
    widenSpan(bf16Of(t), f.data(), t.numel());
    return f;
}

// A bf16 tensor shaped as like from like.numel() floats at f.
torch::Tensor narrowed(const float* f, const torch::Tensor& like)
{
    torch::Tensor t = torch::empty_like(like, torch::MemoryFormat::Contiguous);
    narrowSpan(f, bf16Of(t), t.numel());
    return t;
}

// Rows per task: enough work (about 32k elements) to be worth a thread.
std::int64_t grainRows(std::int64_t dim) { return std::max<std::int64_t>(1, (std::int64_t{1} << 15) / dim); }

class LayerNormFn : public torch::autograd::Function<LayerNormFn> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& w,
                                 const torch::Tensor& b, double eps)
    {
        const std::int64_t n = x.size(-1), rows = x.numel() / n;
        torch::Tensor y = torch::empty_like(x, torch::MemoryFormat::Contiguous);
        torch::Tensor stats = torch::empty({2, rows}, x.options().dtype(torch::kFloat));
        const std::vector<float> wf = widened(w), bf = widened(b);
        const std::uint16_t* in = bf16Of(x);
        std::uint16_t* out = bf16Of(y);
        float* mean = stats.data_ptr<float>();
        float* rstd = mean + rows;
        at::parallel_for(0, rows, grainRows(n), [&](std::int64_t begin, std::int64_t end) {
            std::vector<float> xs(static_cast<std::size_t>(2 * n));
            float* ys = xs.data() + n;
            for (std::int64_t r = begin; r < end; ++r) {
                widenSpan(in + r * n, xs.data(), n);
                const Moments m = momentsOf(xs.data(), n, static_cast<float>(eps));
                normalise(xs.data(), m, wf.data(), bf.data(), ys, n);
                narrowSpan(ys, out + r * n, n);
                mean[r] = m.mean;
                rstd[r] = m.rstd;
            }
        });
        ctx->save_for_backward({x, w, stats});
        return y;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        if (!grads[0].defined()) return {torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &w = saved[1], &stats = saved[2];
        const torch::Tensor dy = grads[0].to(x.scalar_type()).contiguous();
        const std::int64_t n = x.size(-1), rows = x.numel() / n;
        torch::Tensor dx = torch::empty_like(x, torch::MemoryFormat::Contiguous);
        const std::vector<float> wf = widened(w);
        const std::uint16_t *in = bf16Of(x), *grad = bf16Of(dy);
        std::uint16_t* out = bf16Of(dx);
        const float* mean = stats.data_ptr<float>();
        const float* rstd = mean + rows;
        // dw and db: a partial sum per fixed block of rows, added in block
        // order, so that the result does not depend on thread timing.
        const std::int64_t blocks = std::min<std::int64_t>(std::max(1, at::get_num_threads()), (rows + grainRows(n) - 1) / grainRows(n));
        const std::int64_t perBlock = (rows + blocks - 1) / blocks;
        std::vector<float> partial(static_cast<std::size_t>(blocks * 2 * n), 0.0f);
        at::parallel_for(0, blocks, 1, [&](std::int64_t firstBlock, std::int64_t endBlock) {
            std::vector<float> buf(static_cast<std::size_t>(3 * n));
            float *xs = buf.data(), *gs = xs + n, *dxs = gs + n;
            for (std::int64_t k = firstBlock; k < endBlock; ++k) {
                float* dw = partial.data() + k * 2 * n;
                float* db = dw + n;
                for (std::int64_t r = k * perBlock; r < std::min(rows, (k + 1) * perBlock); ++r) {
                    widenSpan(in + r * n, xs, n);
                    widenSpan(grad + r * n, gs, n);
                    backwardRow(xs, gs, {mean[r], rstd[r]}, wf.data(), dxs, dw, db, n);
                    narrowSpan(dxs, out + r * n, n);
                }
            }
        });
        for (std::int64_t k = 1; k < blocks; ++k)
            for (std::int64_t i = 0; i < 2 * n; ++i) partial[static_cast<std::size_t>(i)] += partial[static_cast<std::size_t>(k * 2 * n + i)];
        return {dx, narrowed(partial.data(), w), narrowed(partial.data() + n, w), torch::Tensor()};
    }
};

bool applies(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b)
{
    if (!x.device().is_cpu() || x.scalar_type() != torch::kBFloat16 || !x.is_contiguous() || x.dim() == 0 || x.numel() == 0)
        return false;
    for (const torch::Tensor* p : {&w, &b})
        if (!p->defined() || !p->device().is_cpu() || p->scalar_type() != torch::kBFloat16 || p->dim() != 1 ||
            p->size(0) != x.size(-1) || !p->is_contiguous())
            return false;
    return !referenceLayerNormForced();
}

} // namespace

bool referenceLayerNormForced() { return forcedToReference("SB_LAYER_NORM"); }

torch::Tensor applyLayerNorm(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, double eps)
{
    if (applies(x, w, b)) return LayerNormFn::apply(x, w, b, eps);
    const std::vector<std::int64_t> shape{x.size(-1)};
    if (x.is_cpu() && x.element_size() == 2) {
        // ATen's 2-byte CPU layer norm is not vectorised: through fp32, rounded
        // once; it keeps an fp32 copy of its input for backward.
        const auto f = torch::kFloat;
        return torch::layer_norm(x.to(f), shape, w.to(f), b.defined() ? b.to(f) : b, eps).to(x.scalar_type());
    }
    return torch::layer_norm(x, shape, w, b, eps);
}

} // namespace sb::engine
