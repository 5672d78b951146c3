#include "cross_entropy.hpp"

#include "bf16_span.hpp"
#include "fast_exp.hpp"
#include "reference_switch.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace sb::engine {

namespace {

// The row reductions in 16 independent lanes (GCC's vector extension: one
// register under the AVX-512 clone, four under SSE), since without fast math
// the compiler keeps a float max or sum in order, one element at a time.
constexpr std::int64_t kLanes = 16;
using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));

// v = the lanes at p (unaligned). Not a function returning a vector: its
// ABI would differ between the clones.
inline void loadLanes(Lanes& v, const float* p) { std::memcpy(&v, p, sizeof v); }

SB_VECTOR_CLONES float rowMax(const float* __restrict x, std::int64_t n)
{
    const std::int64_t body = n / kLanes * kLanes;
    float m = -std::numeric_limits<float>::infinity();
    if (body > 0) {
        Lanes lanes, v;
        loadLanes(lanes, x);
        for (std::int64_t j = kLanes; j < body; j += kLanes) {
            loadLanes(v, x + j);
            lanes = v > lanes ? v : lanes;
        }
        for (std::int64_t k = 0; k < kLanes; ++k) m = lanes[k] > m ? lanes[k] : m;
    }
    for (std::int64_t j = body; j < n; ++j) m = x[j] > m ? x[j] : m;
    return m;
}

SB_VECTOR_CLONES float rowSum(const float* __restrict x, std::int64_t n)
{
    const std::int64_t body = n / kLanes * kLanes;
    Lanes lanes = {}, v;
    for (std::int64_t j = 0; j < body; j += kLanes) {
        loadLanes(v, x + j);
        lanes += v;
    }
    float s = 0.0f;
    for (std::int64_t k = 0; k < kLanes; ++k) s += lanes[k];
    for (std::int64_t j = body; j < n; ++j) s += x[j];
    return s;
}

SB_VECTOR_CLONES void expShifted(const float* __restrict x, float* __restrict e, std::int64_t n, float shift)
{
    for (std::int64_t j = 0; j < n; ++j) e[j] = expOf(x[j] - shift);
}

// A row's max and log(sum exp(x - max)): log_softmax's two terms. A NaN makes
// the sum NaN (the max skips it, exp does not). e: n floats of scratch.
struct RowStats {
    float max, logSum;
};

RowStats rowStats(const float* x, float* e, std::int64_t n)
{
    const float m = rowMax(x, n);
    expShifted(x, e, n, m);
    return {m, std::log(rowSum(e, n))};
}

// d[j] = exp((x[j] - max) - logSum) * c: softmax times the incoming gradient
// over N (the target's -c is added by the caller, as its own rounding).
SB_VECTOR_CLONES void rowSoftmaxScaled(const float* __restrict x, float* __restrict d, std::int64_t n, RowStats st,
                                       float c)
{
    for (std::int64_t j = 0; j < n; ++j) d[j] = expOf((x[j] - st.max) - st.logSum) * c;
}

// Row i of a [N, V] tensor in fp32: the row itself, or widened into buf.
const float* widenedRow(const torch::Tensor& t, std::int64_t i, std::vector<float>& buf)
{
    const std::int64_t V = t.size(1);
    if (t.scalar_type() == torch::kFloat) return t.data_ptr<float>() + i * V;
    buf.resize(static_cast<std::size_t>(V));
    widenSpan(bitsOf(t.data_ptr<at::BFloat16>()) + i * V, buf.data(), V);
    return buf.data();
}

// Grain of the row loops: rows of a large vocabulary are work enough alone.
std::int64_t rowGrain(std::int64_t V) { return std::max<std::int64_t>(1, (std::int64_t{1} << 15) / std::max<std::int64_t>(V, 1)); }

void checkTargets(const torch::Tensor& targets, std::int64_t V)
{
    const std::int64_t* t = targets.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < targets.numel(); ++i)
        TORCH_CHECK(t[i] >= 0 && t[i] < V, "cross-entropy: target ", t[i], " of row ", i, " is outside the vocabulary [0, ", V,
                    ")");
}

class CrossEntropyFn : public torch::autograd::Function<CrossEntropyFn> {
public:
    // logits [N, V] contiguous, targets [N] int64 contiguous.
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& logits,
                                 const torch::Tensor& targets)
    {
        const std::int64_t N = logits.size(0), V = logits.size(1);
        checkTargets(targets, V);
        torch::Tensor stats = torch::empty({N, 2}, torch::kFloat);
        std::vector<double> rowLoss(static_cast<std::size_t>(N));
        const std::int64_t* t = targets.data_ptr<std::int64_t>();
        float* st = stats.data_ptr<float>();
        at::parallel_for(0, N, rowGrain(V), [&](std::int64_t begin, std::int64_t end) {
            std::vector<float> buf, scratch(static_cast<std::size_t>(V));
            for (std::int64_t i = begin; i < end; ++i) {
                const float* x = widenedRow(logits, i, buf);
                const RowStats s = rowStats(x, scratch.data(), V);
                st[2 * i] = s.max, st[2 * i + 1] = s.logSum;
                rowLoss[static_cast<std::size_t>(i)] = -((x[t[i]] - s.max) - s.logSum); // -log p of the target, in fp32
            }
        });
        double sum = 0.0; // in row order, whatever the threads
        for (double l : rowLoss) sum += l;
        ctx->save_for_backward({logits, targets, stats});
        return torch::full({}, static_cast<float>(sum / static_cast<double>(N)), torch::kFloat);
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        if (!grads[0].defined()) return {torch::Tensor(), torch::Tensor()};
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& logits = saved[0];
        const std::int64_t N = logits.size(0), V = logits.size(1);
        // nll_loss's mean: the gradient at each target is -g / N, in fp32.
        const float c = grads[0].to(torch::kFloat).item<float>() / static_cast<float>(N);
        const std::int64_t* t = saved[1].data_ptr<std::int64_t>();
        const float* st = saved[2].data_ptr<float>();
        torch::Tensor dx = torch::empty_like(logits, torch::MemoryFormat::Contiguous);
        const bool wide = logits.scalar_type() == torch::kFloat;
        at::parallel_for(0, N, rowGrain(V), [&](std::int64_t begin, std::int64_t end) {
            std::vector<float> buf, out(wide ? 0 : static_cast<std::size_t>(V));
            for (std::int64_t i = begin; i < end; ++i) {
                const float* x = widenedRow(logits, i, buf);
                float* d = wide ? dx.data_ptr<float>() + i * V : out.data();
                rowSoftmaxScaled(x, d, V, {st[2 * i], st[2 * i + 1]}, c);
                d[t[i]] -= c;
                if (!wide) narrowSpan(d, bitsOf(dx.data_ptr<at::BFloat16>()) + i * V, V);
            }
        });
        return {dx, torch::Tensor()};
    }
};

bool applies(const torch::Tensor& logits, const torch::Tensor& targets)
{
    return logits.device().is_cpu() && (logits.scalar_type() == torch::kFloat || logits.scalar_type() == torch::kBFloat16) &&
           logits.is_contiguous() && logits.numel() > 0 && targets.device().is_cpu() &&
           targets.scalar_type() == torch::kLong && targets.is_contiguous() && !referenceCrossEntropyForced();
}

} // namespace

bool referenceCrossEntropyForced() { return forcedToReference("SB_CROSS_ENTROPY"); }

torch::Tensor crossEntropyLoss(torch::Tensor logits, const torch::Tensor& targets)
{
    const std::int64_t V = logits.size(-1);
    const torch::Tensor flatTargets = targets.reshape({-1});
    TORCH_CHECK(logits.numel() == flatTargets.numel() * V, "cross-entropy: ", flatTargets.numel(), " targets for logits of shape ",
                logits.sizes());
    torch::Tensor rows = logits.reshape({-1, V});
    logits = torch::Tensor();
    if (applies(rows, flatTargets)) return CrossEntropyFn::apply(rows, flatTargets);
    if (rows.scalar_type() != torch::kFloat) rows = rows.to(torch::kFloat); // the low-precision logits go here
    return torch::nll_loss(torch::log_softmax(rows, -1), flatTargets);
}

} // namespace sb::engine
