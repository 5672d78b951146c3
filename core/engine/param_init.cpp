#include "param_init.hpp"

#include "device.hpp"
#include "torch_dtype.hpp"

#include <cmath>

namespace sb::engine {

namespace {

std::uint64_t hashName(const std::string& s)
{
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

enum class Kind { Normal, Ones, Zeros };

Kind kindOf(const ModuleTree& tree, const Param& p)
{
    const Module& m = tree.module(p.module);
    const bool bias = p.path.size() >= 4 && p.path.compare(p.path.size() - 4, 4, "bias") == 0;
    if (bias) return Kind::Zeros;
    if (m.type == "LayerNorm" || m.type == "RMSNorm") return Kind::Ones;
    return Kind::Normal;
}

} // namespace

void initParamRows(torch::Tensor dst, const ModuleTree& tree, int param, std::int64_t firstRow, std::uint64_t seed)
{
    const Param& p = tree.param(param);
    const Kind kind = kindOf(tree, p);
    if (kind == Kind::Ones) { dst.fill_(1.0); return; }
    if (kind == Kind::Zeros) { dst.zero_(); return; }
    if (!dst.is_cpu()) { // computed on the CPU, so every device starts from the same bits
        torch::Tensor host = torch::empty(dst.sizes(), torch::kFloat);
        initParamRows(host, tree, param, firstRow, seed);
        dst.copy_(host);
        return;
    }
    float* out = dst.data_ptr<float>();
    const std::int64_t n = dst.numel();
    const std::uint64_t base = splitmix64(seed ^ hashName(p.path));
    const std::uint64_t first = static_cast<std::uint64_t>(firstRow * p.rowNumel());
    constexpr double kStd = 0.02;
    constexpr double kTwoPi = 6.283185307179586;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::uint64_t idx = first + static_cast<std::uint64_t>(i);
        const std::uint64_t a = splitmix64(base + 2 * idx);
        const std::uint64_t b = splitmix64(base + 2 * idx + 1);
        const double u1 = (static_cast<double>(a >> 11) + 1.0) * 0x1.0p-53; // (0, 1]
        const double u2 = static_cast<double>(b >> 11) * 0x1.0p-53;
        out[i] = static_cast<float>(kStd * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2));
    }
}

torch::Tensor initFullParam(const ModuleTree& tree, int param, std::uint64_t seed)
{
    const Param& p = tree.param(param);
    torch::Tensor t = torch::empty({p.rows(), p.rowNumel()}, onDevice(torch::kFloat));
    initParamRows(t, tree, param, 0, seed);
    t = t.view(p.shardedShape()).detach();
    t.set_requires_grad(true);
    return t;
}

} // namespace sb::engine
