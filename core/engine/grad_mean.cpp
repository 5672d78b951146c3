#include "grad_mean.hpp"

#include "bf16_span.hpp"

#include <algorithm>
#include <cstdint>

namespace sb::engine {

namespace {

// Blocks small enough for the sum to stay in L1 while every row is added.
constexpr std::int64_t kBlock = 2048;

// sum[i] = row[i] (first) or sum[i] += row[i]; a bf16 row is widened first
// (exactly: a bf16 is a float's high half).
SB_VECTOR_CLONES void addRow(float* __restrict sum, const float* __restrict row, std::int64_t n, bool first)
{
    if (first)
        for (std::int64_t i = 0; i < n; ++i) sum[i] = row[i];
    else
        for (std::int64_t i = 0; i < n; ++i) sum[i] += row[i];
}

void addRow(float* __restrict sum, const std::uint16_t* __restrict row, std::int64_t n, bool first)
{
    if (first) {
        widenSpan(row, sum, n);
        return;
    }
    alignas(64) float wide[kBlock];
    widenSpan(row, wide, n);
    addRow(sum, wide, n, false);
}

// Not cloned: where an AVX-512 clone would fuse dst + sum * scale into one
// rounding, every host must round as the unfused baseline does.
void scaleInto(float* __restrict dst, const float* __restrict sum, std::int64_t n, float scale, bool accumulate)
{
    if (accumulate)
        for (std::int64_t i = 0; i < n; ++i) dst[i] += sum[i] * scale;
    else
        for (std::int64_t i = 0; i < n; ++i) dst[i] = sum[i] * scale;
}

template <typename T>
void meanOf(float* out, const T* rows, std::int64_t n, std::int64_t ways, std::int64_t stride, float scale, bool accumulate)
{
    alignas(64) float sum[kBlock];
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const std::int64_t len = std::min(kBlock, n - begin);
        for (std::int64_t w = 0; w < ways; ++w) addRow(sum, rows + w * stride + begin, len, w == 0);
        scaleInto(out + begin, sum, len, scale, accumulate);
    }
}

} // namespace

bool meansRowsInPlace(const torch::Tensor& rows, const torch::Tensor& out)
{
    const bool rowsOk = rows.is_cpu() && (rows.scalar_type() == torch::kFloat || rows.scalar_type() == torch::kBFloat16) &&
                        (rows.dim() == 1 || rows.dim() == 2) && rows.stride(rows.dim() - 1) == 1;
    return rowsOk && out.is_cpu() && out.scalar_type() == torch::kFloat && out.is_contiguous() && out.dim() == 1 &&
           out.numel() == rows.size(rows.dim() - 1);
}

void meanOfRowsInto(const torch::Tensor& out, const torch::Tensor& rows, float scale, bool accumulate)
{
    const std::int64_t n = out.numel();
    const std::int64_t ways = rows.dim() == 2 ? rows.size(0) : 1;
    const std::int64_t stride = rows.dim() == 2 ? rows.stride(0) : 0;
    float* const o = out.data_ptr<float>();
    if (rows.scalar_type() == torch::kBFloat16)
        meanOf(o, bitsOf(rows.data_ptr<c10::BFloat16>()), n, ways, stride, scale, accumulate);
    else
        meanOf(o, rows.data_ptr<float>(), n, ways, stride, scale, accumulate);
}

} // namespace sb::engine
