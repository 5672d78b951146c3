// The engine's fused causal attention (causal_attention.hpp) against the ops
// it replaces, composed here independently (head-major transpose, repeated
// key/value heads, matmul, scale, masked_fill, softmax, matmul): the output
// and the gradients of q, k and v, for odd sizes, one position, lengths on
// either side of the 32-query blocks, grouped key/value heads, and inputs
// strided as the projections and GPT-2's split leave them (and worse), in
// fp32 and bf16. fp32 rounding only: within 1e-5 of each tensor's largest
// value. bf16 against the attention in double from the same bf16 values,
// rounded to bf16 where PyTorch 2's fused kernel rounds (the unnormalised
// probabilities, and in backward the probabilities and dS, before their
// products), with grouped key/value heads repeated in bf16 as the exported
// model does (so their gradients are summed in bf16): the output within one
// bf16 rounding, the gradients (bf16 both) within one step and 99 % the same
// bits; bf16 twice, with oneDNN's bf16 products where this CPU has them and
// with every product widened to fp32 (SB_ATTENTION_BF16_GEMM=reference).
// In double, the gradients against central finite differences (within 1e-6).
#include "causal_attention.hpp"

#include <QtTest>

#include <torch/torch.h>

#include <dlfcn.h>

#include <array>
#include <cmath>
#include <limits>

namespace {

// Head-major [B, H, S, hd] views of [B, S, heads, hd] tensors, grouped
// key/value heads repeated (in the tensors' own dtype, as the exported model
// does before scaled_dot_product_attention, so that autograd sums their
// gradients in that dtype).
std::array<torch::Tensor, 3> headMajor(const torch::Tensor& q4, const torch::Tensor& k4, const torch::Tensor& v4)
{
    auto q = q4.transpose(1, 2), k = k4.transpose(1, 2), v = v4.transpose(1, 2);
    if (k4.size(2) != q4.size(2)) {
        k = k.repeat_interleave(q4.size(2) / k4.size(2), 1);
        v = v.repeat_interleave(q4.size(2) / k4.size(2), 1);
    }
    return {q, k, v};
}

torch::Tensor causalMask(std::int64_t S) { return torch::ones({S, S}, torch::kBool).triu(1); }

torch::Tensor composed(const torch::Tensor& q4, const torch::Tensor& k4, const torch::Tensor& v4, double scale)
{
    const std::int64_t B = q4.size(0), S = q4.size(1), H = q4.size(2), hd = q4.size(3);
    const auto [q, k, v] = headMajor(q4, k4, v4);
    auto scores = (torch::matmul(q, k.transpose(-2, -1)) * scale).masked_fill(causalMask(S), -std::numeric_limits<float>::infinity());
    return torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({B, S, H * hd});
}

torch::Tensor bf16Rounded(const torch::Tensor& t) { return t.to(torch::kBFloat16).to(t.scalar_type()); }

// The attention in double with bf16 rounding where PyTorch 2's fused CPU
// kernel rounds: the unnormalised probabilities exp(s - max) before their
// product with v (divided by the row sums after it); in backward the
// probabilities before dV = P^T dO, and dS before dQ = scale dS K and
// dK = scale dS^T Q. q, k, v [B, H, S, hd] in double.
class RoundedAttention : public torch::autograd::Function<RoundedAttention> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, double scale)
    {
        const auto s = (torch::matmul(q, k.transpose(-2, -1)) * scale).masked_fill(causalMask(q.size(2)), -std::numeric_limits<double>::infinity());
        const auto e = (s - std::get<0>(s.max(-1, true))).exp();
        const auto sums = e.sum(-1, true);
        ctx->save_for_backward({q, k, v, e / sums});
        ctx->saved_data["scale"] = scale;
        return torch::matmul(bf16Rounded(e), v) / sums;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &q = saved[0], &k = saved[1], &v = saved[2], &p = saved[3], &dout = grads[0];
        const double scale = ctx->saved_data["scale"].toDouble();
        const auto dp = torch::matmul(dout, v.transpose(-2, -1));
        const auto ds = bf16Rounded(p * (dp - (p * dp).sum(-1, true)));
        return {torch::matmul(ds, k) * scale, torch::matmul(ds.transpose(-2, -1), q) * scale,
                torch::matmul(bf16Rounded(p).transpose(-2, -1), dout), torch::Tensor()};
    }
};

// bf16 q, k, v as the fused bf16 attention computes them, in double.
torch::Tensor roundedInDouble(const torch::Tensor& q4, const torch::Tensor& k4, const torch::Tensor& v4, double scale)
{
    const std::int64_t B = q4.size(0), S = q4.size(1), H = q4.size(2), hd = q4.size(3);
    const auto [q, k, v] = headMajor(q4, k4, v4);
    return RoundedAttention::apply(q.to(torch::kDouble), k.to(torch::kDouble), v.to(torch::kDouble), scale)
        .transpose(1, 2)
        .reshape({B, S, H * hd});
}

double relative(const torch::Tensor& got, const torch::Tensor& want)
{
    const double scale = std::max(want.abs().max().item<double>(), 1e-30);
    return (got - want).abs().max().item<double>() / scale;
}

} // namespace

class EngineAttention : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void initTestCase()
    {
        if (qgetenv("SB_ATTENTION") == "reference") QSKIP("SB_ATTENTION=reference turns the fused attention off");
        // PyTorch's own LibTorch (build-torch2) loads no cblas_sgemm: there the core's attention is ATen's.
        if (!dlsym(RTLD_DEFAULT, "cblas_sgemm")) QSKIP("this process has no cblas_sgemm: the core's attention is ATen's here");
    }

    void matchesTheComposedOps_data()
    {
        QTest::addColumn<int>("B");
        QTest::addColumn<int>("S");
        QTest::addColumn<int>("H");
        QTest::addColumn<int>("KV");
        QTest::addColumn<int>("hd");
        // 0: [B,S,H*hd] views; 1: a third of a fused qkv (GPT-2); 2: non-contiguous last dim;
        // 3: q one position broadcast along S (leading dimension 0: must be copied)
        QTest::addColumn<int>("layout");
        QTest::addColumn<bool>("bf16");
        QTest::addColumn<bool>("widened"); // bf16 with SB_ATTENTION_BF16_GEMM=reference: every product in fp32
        for (const int mode : {0, 1, 2}) {
            const bool bf16 = mode > 0;
            const char* t = mode == 0 ? "" : mode == 1 ? "bf16 " : "bf16 widened ";
            QTest::addRow("%sbench shape", t) << 2 << 64 << 4 << 4 << 64 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sodd sizes", t) << 3 << 37 << 3 << 3 << 13 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sone position", t) << 2 << 1 << 2 << 2 << 8 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sgrouped kv heads", t) << 2 << 19 << 8 << 2 << 16 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sgpt-2 split", t) << 2 << 23 << 4 << 4 << 8 << 1 << bf16 << (mode == 2);
            QTest::addRow("%stransposed input", t) << 1 << 17 << 2 << 1 << 12 << 2 << bf16 << (mode == 2);
            QTest::addRow("%sone block exactly", t) << 2 << 32 << 2 << 2 << 16 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sone past a block", t) << 1 << 33 << 4 << 2 << 20 << 0 << bf16 << (mode == 2);
            QTest::addRow("%sthree blocks, grouped", t) << 2 << 95 << 6 << 2 << 24 << 0 << bf16 << (mode == 2);
            QTest::addRow("%slong, gpt-2 split", t) << 1 << 130 << 2 << 2 << 32 << 1 << bf16 << (mode == 2);
            QTest::addRow("%sbroadcast positions", t) << 2 << 9 << 2 << 2 << 8 << 3 << bf16 << (mode == 2);
        }
    }

    // fp32 against the composition in fp32: within 1e-5 of each tensor's
    // largest value. bf16 against the rounded attention in double from the
    // same bf16 values: one bf16 rounding (2^-8 of the largest value) plus fp32's.
    void matchesTheComposedOps()
    {
        QFETCH(int, B);
        QFETCH(int, S);
        QFETCH(int, H);
        QFETCH(int, KV);
        QFETCH(int, hd);
        QFETCH(int, layout);
        QFETCH(bool, bf16);
        QFETCH(bool, widened);
        if (widened) qputenv("SB_ATTENTION_BF16_GEMM", "reference");
        const auto restore = qScopeGuard([] { qunsetenv("SB_ATTENTION_BF16_GEMM"); });
        torch::manual_seed(B * 1000 + S);
        const auto dtype = bf16 ? torch::kBFloat16 : torch::kFloat;
        auto leaf = [&](std::vector<std::int64_t> shape) { return torch::randn(shape).to(dtype); };
        std::vector<torch::Tensor> values;
        if (layout == 1) // one [B, S, 3D] projection split three ways: rows strided by 3D
            values = {leaf({B, S, 3 * H * hd})};
        else if (layout == 2) // last dim not contiguous
            values = {leaf({B, S, hd, H}), leaf({B, S, hd, KV}), leaf({B, S, hd, KV})};
        else if (layout == 3)
            values = {leaf({B, 1, H, hd}), leaf({B, S, KV * hd}), leaf({B, S, KV * hd})};
        else
            values = {leaf({B, S, H * hd}), leaf({B, S, KV * hd}), leaf({B, S, KV * hd})};
        // q, k and v as views of the leaves, in the layout under test.
        auto views = [&](const std::vector<torch::Tensor>& l) -> std::array<torch::Tensor, 3> {
            if (layout == 1) {
                auto parts = l[0].split(H * hd, 2);
                return {parts[0].view({B, S, H, hd}), parts[1].view({B, S, KV, hd}), parts[2].view({B, S, KV, hd})};
            }
            if (layout == 2) return {l[0].transpose(2, 3), l[1].transpose(2, 3), l[2].transpose(2, 3)};
            if (layout == 3) return {l[0].expand({B, S, H, hd}), l[1].view({B, S, KV, hd}), l[2].view({B, S, KV, hd})};
            return {l[0].view({B, S, H, hd}), l[1].view({B, S, KV, hd}), l[2].view({B, S, KV, hd})};
        };
        auto leavesOf = [&](torch::ScalarType type) {
            std::vector<torch::Tensor> l;
            for (const auto& t : values) l.push_back(t.to(type).set_requires_grad(true));
            return l;
        };
        const std::vector<torch::Tensor> leaves = leavesOf(dtype), wantLeaves = leavesOf(dtype);
        const auto [q, k, v] = views(leaves);
        QVERIFY2(sb::engine::fusedAttentionApplies(q, k, v), "no BLAS entry point found, or SB_ATTENTION=reference");
        const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
        const torch::Tensor upstream = torch::randn({B, S, H * hd}).to(dtype);

        const torch::Tensor fused = sb::engine::causalAttention(q, k, v, scale);
        QCOMPARE(fused.sizes().vec(), (std::vector<std::int64_t>{B, S, H * hd}));
        QCOMPARE(fused.scalar_type(), dtype);
        const auto fusedGrads = torch::autograd::grad({fused}, leaves, {upstream});
        const auto [wq, wk, wv] = views(wantLeaves);
        const torch::Tensor want = bf16 ? roundedInDouble(wq, wk, wv, scale) : composed(wq, wk, wv, scale);
        const auto wantGrads = torch::autograd::grad({want}, wantLeaves, {upstream.to(want.scalar_type())});

        const double tolerance = bf16 ? std::ldexp(1.0, -8) + 1e-5 : 1e-5;
        const auto compare = [](const torch::Tensor& got, const torch::Tensor& w) {
            return relative(got.to(torch::kDouble), w.to(torch::kDouble));
        };
        const double out = compare(fused, want);
        QVERIFY2(out <= tolerance, qPrintable(QStringLiteral("output differs by %1").arg(out)));
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            QCOMPARE(fusedGrads[i].scalar_type(), dtype);
            const double g = compare(fusedGrads[i], wantGrads[i]);
            // bf16 gradients: both rounded to bf16, so equal or one step apart.
            const double allowed = bf16 ? 2 * tolerance : tolerance;
            QVERIFY2(g <= allowed, qPrintable(QStringLiteral("gradient of input %1 differs by %2").arg(i).arg(g)));
            if (bf16) { // and mostly the same bits (fp32 against double inside)
                const double same = fusedGrads[i].eq(wantGrads[i]).to(torch::kDouble).mean().item<double>();
                QVERIFY2(same >= 0.99, qPrintable(QStringLiteral("gradient of input %1: %2 of its values equal").arg(i).arg(same)));
            }
        }

        // Without grad mode: the same output, without kept probabilities.
        torch::NoGradGuard noGrad;
        const double inference = compare(sb::engine::causalAttention(q, k, v, scale), want);
        QVERIFY2(inference <= tolerance, qPrintable(QStringLiteral("output without grad mode differs by %1").arg(inference)));
    }

    // Gradients in double against central differences of sum(out * upstream),
    // over two query blocks with grouped key/value heads.
    void gradientsMatchFiniteDifferences()
    {
        const std::int64_t B = 1, S = 35, H = 2, KV = 1, hd = 3;
        torch::manual_seed(7);
        const auto opts = torch::TensorOptions().dtype(torch::kDouble);
        std::vector<torch::Tensor> in = {torch::randn({B, S, H * hd}, opts), torch::randn({B, S, KV * hd}, opts),
                                         torch::randn({B, S, KV * hd}, opts)};
        const torch::Tensor upstream = torch::randn({B, S, H * hd}, opts);
        const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
        auto loss = [&](const std::vector<torch::Tensor>& t) {
            return (sb::engine::causalAttention(t[0].view({B, S, H, hd}), t[1].view({B, S, KV, hd}),
                                                t[2].view({B, S, KV, hd}), scale) *
                    upstream)
                .sum();
        };
        QVERIFY(sb::engine::fusedAttentionApplies(in[0].view({B, S, H, hd}), in[1].view({B, S, KV, hd}),
                                                  in[2].view({B, S, KV, hd})));
        std::vector<torch::Tensor> leaves;
        for (const auto& t : in) leaves.push_back(t.clone().set_requires_grad(true));
        const auto analytic = torch::autograd::grad({loss(leaves)}, leaves);
        torch::NoGradGuard noGrad;
        const double eps = 1e-6;
        for (std::size_t i = 0; i < in.size(); ++i) {
            auto numeric = torch::empty_like(in[i]);
            auto flat = in[i].view(-1);
            for (std::int64_t e = 0; e < flat.numel(); ++e) {
                const double x = flat[e].item<double>();
                flat[e] = x + eps;
                const double up = loss(in).item<double>();
                flat[e] = x - eps;
                const double down = loss(in).item<double>();
                flat[e] = x;
                numeric.view(-1)[e] = (up - down) / (2 * eps);
            }
            const double g = relative(analytic[i], numeric);
            QVERIFY2(g <= 1e-6, qPrintable(QStringLiteral("gradient of input %1 differs by %2").arg(i).arg(g)));
        }
    }

    void otherTensorsKeepTheComposedOps()
    {
        const auto q = torch::randn({1, 4, 2, 8});
        QVERIFY(sb::engine::fusedAttentionApplies(q, q, q));
        QVERIFY(sb::engine::fusedAttentionApplies(q.to(torch::kBFloat16), q.to(torch::kBFloat16), q.to(torch::kBFloat16)));
        QVERIFY(!sb::engine::fusedAttentionApplies(q.to(torch::kHalf), q.to(torch::kHalf), q.to(torch::kHalf)));
        QVERIFY(sb::engine::fusedAttentionApplies(q.to(torch::kDouble), q.to(torch::kDouble), q.to(torch::kDouble)));
        QVERIFY(!sb::engine::fusedAttentionApplies(q, q.to(torch::kDouble), q)); // mixed dtypes
        QVERIFY(!sb::engine::fusedAttentionApplies(q, torch::randn({1, 4, 3, 8}), torch::randn({1, 4, 3, 8}))); // 2 heads, 3 kv heads
        QVERIFY(!sb::engine::fusedAttentionApplies(torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8})));
    }
};

QTEST_GUILESS_MAIN(EngineAttention)
#include "tst_engine_attention.moc"
