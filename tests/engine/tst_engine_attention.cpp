// The engine's fused causal attention (causal_attention.hpp) against the ops
// it replaces, composed here independently (head-major transpose, repeated
// key/value heads, matmul, scale, masked_fill, softmax, matmul): the output
// and the gradients of q, k and v, for odd sizes, one position, lengths on
// either side of the 32-query blocks, grouped key/value heads, and inputs
// strided as the projections and GPT-2's split leave them (and worse). fp32
// rounding only: within 1e-5 of each tensor's largest value. In double, the
// gradients against central finite differences (within 1e-6).
#include "causal_attention.hpp"

#include <QtTest>

#include <torch/torch.h>

#include <cmath>
#include <limits>

namespace {

torch::Tensor composed(const torch::Tensor& q4, const torch::Tensor& k4, const torch::Tensor& v4, double scale)
{
    const std::int64_t B = q4.size(0), S = q4.size(1), H = q4.size(2), KV = k4.size(2), hd = q4.size(3);
    auto q = q4.transpose(1, 2), k = k4.transpose(1, 2), v = v4.transpose(1, 2);
    if (KV != H) {
        k = k.repeat_interleave(H / KV, 1);
        v = v.repeat_interleave(H / KV, 1);
    }
    auto mask = torch::ones({S, S}, torch::kBool).triu(1);
    auto scores = (torch::matmul(q, k.transpose(-2, -1)) * scale).masked_fill(mask, -std::numeric_limits<float>::infinity());
    return torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({B, S, H * hd});
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
    void initTestCase()
    {
        if (qgetenv("SB_ATTENTION") == "reference") QSKIP("SB_ATTENTION=reference turns the fused attention off");
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
        QTest::newRow("bench shape") << 2 << 64 << 4 << 4 << 64 << 0;
        QTest::newRow("odd sizes") << 3 << 37 << 3 << 3 << 13 << 0;
        QTest::newRow("one position") << 2 << 1 << 2 << 2 << 8 << 0;
        QTest::newRow("grouped kv heads") << 2 << 19 << 8 << 2 << 16 << 0;
        QTest::newRow("gpt-2 split") << 2 << 23 << 4 << 4 << 8 << 1;
        QTest::newRow("transposed input") << 1 << 17 << 2 << 1 << 12 << 2;
        QTest::newRow("one block exactly") << 2 << 32 << 2 << 2 << 16 << 0;
        QTest::newRow("one past a block") << 1 << 33 << 4 << 2 << 20 << 0;
        QTest::newRow("three blocks, grouped") << 2 << 95 << 6 << 2 << 24 << 0;
        QTest::newRow("long, gpt-2 split") << 1 << 130 << 2 << 2 << 32 << 1;
        QTest::newRow("broadcast positions") << 2 << 9 << 2 << 2 << 8 << 3;
    }

    void matchesTheComposedOps()
    {
        QFETCH(int, B);
        QFETCH(int, S);
        QFETCH(int, H);
        QFETCH(int, KV);
        QFETCH(int, hd);
        QFETCH(int, layout);
        torch::manual_seed(B * 1000 + S);
        torch::Tensor q, k, v;
        std::vector<torch::Tensor> leaves;
        if (layout == 1) { // one [B, S, 3D] projection split three ways: rows strided by 3D
            auto qkv = torch::randn({B, S, 3 * H * hd}).set_requires_grad(true);
            leaves = {qkv};
            auto parts = qkv.split(H * hd, 2);
            q = parts[0].view({B, S, H, hd});
            k = parts[1].view({B, S, KV, hd});
            v = parts[2].view({B, S, KV, hd});
        } else if (layout == 2) { // last dim not contiguous
            auto qt = torch::randn({B, S, H, hd}).transpose(2, 3).contiguous().set_requires_grad(true);
            auto kt = torch::randn({B, S, KV, hd}).transpose(2, 3).contiguous().set_requires_grad(true);
            auto vt = torch::randn({B, S, KV, hd}).transpose(2, 3).contiguous().set_requires_grad(true);
            leaves = {qt, kt, vt};
            q = qt.transpose(2, 3);
            k = kt.transpose(2, 3);
            v = vt.transpose(2, 3);
        } else if (layout == 3) {
            auto qt = torch::randn({B, 1, H, hd}).set_requires_grad(true);
            auto kf = torch::randn({B, S, KV * hd}).set_requires_grad(true);
            auto vf = torch::randn({B, S, KV * hd}).set_requires_grad(true);
            leaves = {qt, kf, vf};
            q = qt.expand({B, S, H, hd});
            k = kf.view({B, S, KV, hd});
            v = vf.view({B, S, KV, hd});
        } else {
            auto qf = torch::randn({B, S, H * hd}).set_requires_grad(true);
            auto kf = torch::randn({B, S, KV * hd}).set_requires_grad(true);
            auto vf = torch::randn({B, S, KV * hd}).set_requires_grad(true);
            leaves = {qf, kf, vf};
            q = qf.view({B, S, H, hd});
            k = kf.view({B, S, KV, hd});
            v = vf.view({B, S, KV, hd});
        }
        QVERIFY2(sb::engine::fusedAttentionApplies(q, k, v), "no BLAS entry point found, or SB_ATTENTION=reference");
        const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
        const torch::Tensor upstream = torch::randn({B, S, H * hd});

        const torch::Tensor fused = sb::engine::causalAttention(q, k, v, scale);
        QCOMPARE(fused.sizes().vec(), (std::vector<std::int64_t>{B, S, H * hd}));
        const auto fusedGrads = torch::autograd::grad({fused}, leaves, {upstream});
        const torch::Tensor want = composed(q, k, v, scale);
        const auto wantGrads = torch::autograd::grad({want}, leaves, {upstream});

        const double out = relative(fused, want);
        QVERIFY2(out <= 1e-5, qPrintable(QStringLiteral("output differs by %1").arg(out)));
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            const double g = relative(fusedGrads[i], wantGrads[i]);
            QVERIFY2(g <= 1e-5, qPrintable(QStringLiteral("gradient of input %1 differs by %2").arg(i).arg(g)));
        }

        // Without grad mode: the same output, without kept probabilities.
        torch::NoGradGuard noGrad;
        const double inference = relative(sb::engine::causalAttention(q, k, v, scale), want);
        QVERIFY2(inference <= 1e-5, qPrintable(QStringLiteral("output without grad mode differs by %1").arg(inference)));
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
        QVERIFY(!sb::engine::fusedAttentionApplies(q.to(torch::kBFloat16), q.to(torch::kBFloat16), q.to(torch::kBFloat16)));
        QVERIFY(sb::engine::fusedAttentionApplies(q.to(torch::kDouble), q.to(torch::kDouble), q.to(torch::kDouble)));
        QVERIFY(!sb::engine::fusedAttentionApplies(q, q.to(torch::kDouble), q)); // mixed dtypes
        QVERIFY(!sb::engine::fusedAttentionApplies(q, torch::randn({1, 4, 3, 8}), torch::randn({1, 4, 3, 8}))); // 2 heads, 3 kv heads
        QVERIFY(!sb::engine::fusedAttentionApplies(torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8})));
    }
};

QTEST_GUILESS_MAIN(EngineAttention)
#include "tst_engine_attention.moc"
