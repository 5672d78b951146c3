// The engine's fused causal attention (causal_attention.hpp) against the ops
// it replaces, composed here independently (head-major transpose, repeated
// key/value heads, matmul, scale, masked_fill, softmax, matmul): the output
// and the gradients of q, k and v, for odd sizes, one position, grouped
// key/value heads, and inputs strided as the projections and GPT-2's split
// leave them. fp32 rounding only: within 1e-5 of each tensor's largest value.
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
    void matchesTheComposedOps_data()
    {
        QTest::addColumn<int>("B");
        QTest::addColumn<int>("S");
        QTest::addColumn<int>("H");
        QTest::addColumn<int>("KV");
        QTest::addColumn<int>("hd");
        QTest::addColumn<int>("layout"); // 0: [B,S,H*hd] views; 1: a third of a fused qkv (GPT-2); 2: non-contiguous last dim
        QTest::newRow("bench shape") << 2 << 64 << 4 << 4 << 64 << 0;
        QTest::newRow("odd sizes") << 3 << 37 << 3 << 3 << 13 << 0;
        QTest::newRow("one position") << 2 << 1 << 2 << 2 << 8 << 0;
        QTest::newRow("grouped kv heads") << 2 << 19 << 8 << 2 << 16 << 0;
        QTest::newRow("gpt-2 split") << 2 << 23 << 4 << 4 << 8 << 1;
        QTest::newRow("transposed input") << 1 << 17 << 2 << 1 << 12 << 2;
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
    }

    void otherTensorsKeepTheComposedOps()
    {
        const auto q = torch::randn({1, 4, 2, 8});
        QVERIFY(sb::engine::fusedAttentionApplies(q, q, q));
        QVERIFY(!sb::engine::fusedAttentionApplies(q.to(torch::kBFloat16), q.to(torch::kBFloat16), q.to(torch::kBFloat16)));
        QVERIFY(!sb::engine::fusedAttentionApplies(q.to(torch::kDouble), q.to(torch::kDouble), q.to(torch::kDouble)));
        QVERIFY(!sb::engine::fusedAttentionApplies(q, torch::randn({1, 4, 3, 8}), torch::randn({1, 4, 3, 8}))); // 2 heads, 3 kv heads
        QVERIFY(!sb::engine::fusedAttentionApplies(torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8}), torch::randn({1, 0, 2, 8})));
    }
};

QTEST_GUILESS_MAIN(EngineAttention)
#include "tst_engine_attention.moc"
