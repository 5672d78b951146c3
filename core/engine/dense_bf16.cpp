#include "dense_bf16.hpp"

#include <stdexcept>

#ifdef SB_WITH_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/dnnl/dnnl_version.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <vector>
#endif

namespace sb::engine {

#ifdef SB_WITH_DNNL
namespace {

using Dims = dnnl::memory::dims;
using DataType = dnnl::memory::data_type;

// C [m, n] = A [m, k] B [k, n] (+ bias [n]), bf16, row-major C; A and B given
// by their strides, so that a transposed operand is read in place.
struct Product {
    std::int64_t m, n, k;
    std::int64_t aRow, aCol, bRow, bCol; // element strides
    bool bias;
    auto key() const { return std::tie(m, n, k, aRow, aCol, bRow, bCol, bias); }
    bool operator<(const Product& o) const { return key() < o.key(); }
};

struct Prepared {
    dnnl::matmul primitive;
    dnnl::memory::desc a, b, bias, c, scratch;
};

dnnl::engine& cpuEngine()
{
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

// The primitive of a product, created on first use (a few hundred us) and
// kept for the process: a model has a handful of shapes.
const Prepared& prepared(const Product& p)
{
    static std::mutex mutex;
    static std::map<Product, Prepared> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(p);
    if (it != cache.end()) return it->second;
    Prepared made;
    made.a = dnnl::memory::desc(Dims{p.m, p.k}, DataType::bf16, Dims{p.aRow, p.aCol});
    made.b = dnnl::memory::desc(Dims{p.k, p.n}, DataType::bf16, Dims{p.bRow, p.bCol});
    made.c = dnnl::memory::desc(Dims{p.m, p.n}, DataType::bf16, Dims{p.n, 1});
    if (p.bias) made.bias = dnnl::memory::desc(Dims{1, p.n}, DataType::bf16, Dims{p.n, 1});
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user); // this file's buffer, not an allocation a call
#if DNNL_VERSION_MAJOR >= 3 // no operation descriptors
    const auto pd = p.bias ? dnnl::matmul::primitive_desc(cpuEngine(), made.a, made.b, made.bias, made.c, attr)
                           : dnnl::matmul::primitive_desc(cpuEngine(), made.a, made.b, made.c, attr);
#else
    const auto desc = p.bias ? dnnl::matmul::desc(made.a, made.b, made.bias, made.c) : dnnl::matmul::desc(made.a, made.b, made.c);
    const dnnl::matmul::primitive_desc pd(desc, attr, cpuEngine());
#endif
    made.scratch = pd.scratchpad_desc();
    made.primitive = dnnl::matmul(pd);
    return cache.emplace(p, std::move(made)).first->second;
}

void* bits(const torch::Tensor& t) { return t.data_ptr(); }

// Runs the product into c (contiguous [m, n]).
void run(const Product& p, const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& bias, const torch::Tensor& c)
{
    const Prepared& prep = prepared(p);
    thread_local dnnl::stream stream(cpuEngine());
    thread_local std::vector<std::uint8_t> scratch;
    if (scratch.size() < prep.scratch.get_size() + 64) scratch.resize(prep.scratch.get_size() + 64);
    void* aligned = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(scratch.data()) + 63) & ~std::uintptr_t{63});
    dnnl::engine& engine = cpuEngine();
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, dnnl::memory(prep.a, engine, bits(a))},
                                               {DNNL_ARG_WEIGHTS, dnnl::memory(prep.b, engine, bits(b))},
                                               {DNNL_ARG_DST, dnnl::memory(prep.c, engine, bits(c))},
                                               {DNNL_ARG_SCRATCHPAD, dnnl::memory(prep.scratch, engine, aligned)}};
    if (p.bias) args.emplace(DNNL_ARG_BIAS, dnnl::memory(prep.bias, engine, bits(bias)));
    prep.primitive.execute(stream, args);
    stream.wait();
}

// Where ATen's own bf16 products go to oneDNN (LibTorch 1.13's
// mkldnn_bf16_device_check): AVX512 BW, VL and DQ. Elsewhere ATen computes
// them itself (and oneDNN might only have its reference kernels), so the
// layers stay ATen's. Probed once: a primitive oneDNN cannot make here
// leaves them ATen's too.
bool usable()
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (!__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("avx512dq"))
        return false;
#else
    return false;
#endif
    try {
        prepared({32, 32, 32, 32, 1, 32, 1, true});
        return true;
    } catch (const dnnl::error&) {
        return false;
    }
}

} // namespace

bool haveDnnlBf16Dense()
{
    static const bool usableHere = usable();
    return usableHere;
}

torch::Tensor denseBf16Forward(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    const std::int64_t T = x.size(0), in = x.size(1), out = outIn ? w.size(0) : w.size(1);
    torch::Tensor y = torch::empty({T, out}, x.options());
    run({T, out, in, in, 1, outIn ? 1 : out, outIn ? in : 1, b.defined()}, x, w, b, y);
    return y;
}

torch::Tensor denseBf16InputGrad(const torch::Tensor& dy, const torch::Tensor& w, WeightLayout layout)
{
    const bool outIn = layout == WeightLayout::OutIn;
    const std::int64_t T = dy.size(0), out = dy.size(1), in = outIn ? w.size(1) : w.size(0);
    torch::Tensor dx = torch::empty({T, in}, dy.options()); // dy W ([out, in]) or dy W^T ([in, out])
    run({T, in, out, out, 1, outIn ? in : 1, outIn ? 1 : out, false}, dy, w, torch::Tensor(), dx);
    return dx;
}

torch::Tensor denseBf16WeightGrad(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w, WeightLayout layout)
{
    const std::int64_t T = x.size(0), in = x.size(1), out = dy.size(1);
    torch::Tensor dw = torch::empty_like(w, torch::MemoryFormat::Contiguous);
    if (layout == WeightLayout::OutIn) // dW [out, in] = dy^T x
        run({out, in, T, 1, out, in, 1, false}, dy, x, torch::Tensor(), dw);
    else // dW [in, out] = x^T dy
        run({in, out, T, 1, in, out, 1, false}, x, dy, torch::Tensor(), dw);
    return dw;
}

#else

bool haveDnnlBf16Dense() { return false; }

namespace {
[[noreturn]] void notBuilt() { throw std::logic_error("this shardbench-core was built without oneDNN's headers"); }
} // namespace

torch::Tensor denseBf16Forward(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, WeightLayout) { notBuilt(); }
torch::Tensor denseBf16InputGrad(const torch::Tensor&, const torch::Tensor&, WeightLayout) { notBuilt(); }
torch::Tensor denseBf16WeightGrad(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, WeightLayout) { notBuilt(); }

#endif

} // namespace sb::engine
