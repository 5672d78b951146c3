#include "grad_mean.hpp"

#include <algorithm>
#include <cstdint>

namespace sb::engine {

bool meansRowsInPlace(const torch::Tensor& rows, const torch::Tensor& out)
{
    const bool rowsOk = rows.is_cpu() && rows.scalar_type() == torch::kFloat && (rows.dim() == 1 || rows.dim() == 2) &&
                        rows.stride(rows.dim() - 1) == 1;
    return rowsOk && out.is_cpu() && out.scalar_type() == torch::kFloat && out.is_contiguous() && out.dim() == 1 &&
           out.numel() == rows.size(rows.dim() - 1);
}

void meanOfRowsInto(const torch::Tensor& out, const torch::Tensor& rows, float scale, bool accumulate)
{
    const std::int64_t n = out.numel();
    const std::int64_t ways = rows.dim() == 2 ? rows.size(0) : 1;
    const std::int64_t stride = rows.dim() == 2 ? rows.stride(0) : 0;
    const float* const r = rows.data_ptr<float>();
    float* const o = out.data_ptr<float>();
    // Blocks small enough for the sum to stay in L1 while every row is added.
    constexpr std::int64_t kBlock = 2048;
    alignas(64) float sum[kBlock];
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const std::int64_t len = std::min(kBlock, n - begin);
        const float* row0 = r + begin;
        for (std::int64_t i = 0; i < len; ++i) sum[i] = row0[i];
        for (std::int64_t w = 1; w < ways; ++w) {
            const float* row = r + w * stride + begin;
            for (std::int64_t i = 0; i < len; ++i) sum[i] += row[i];
        }
        float* dst = o + begin;
        if (accumulate)
            for (std::int64_t i = 0; i < len; ++i) dst[i] += sum[i] * scale;
        else
            for (std::int64_t i = 0; i < len; ++i) dst[i] = sum[i] * scale;
    }
}

} // namespace sb::engine
